package io.metaquorum.server;

import io.metaquorum.security.SslSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every configuration key a node accepts (docs/configuration.md's table, Kafka's names), with its type
 * and default. Keys of features that come later (ACLs) are accepted and type-checked now, so
 * a configuration written for the finished system already parses.
 * Anything not listed here stops start-up, but the per-listener SASL keys
 * ({@code listener.name.<listener>.sasl.enabled.mechanisms} and
 * {@code listener.name.<listener>.<mechanism>.sasl.jaas.config}), which
 * {@link SaslListenerConfig} recognizes and checks against the listeners.
 */
public final class ConfigKeys {
    public static final String PROCESS_ROLES = "process.roles";
    public static final String NODE_ID = "node.id";
    public static final String QUORUM_VOTERS = "controller.quorum.voters";
    public static final String LISTENERS = "listeners";
    public static final String METADATA_LOG_DIR = "metadata.log.dir";
    public static final String LOG_DIRS = "log.dirs";
    public static final String ELECTION_TIMEOUT_MS = "controller.quorum.election.timeout.ms";
    public static final String FETCH_TIMEOUT_MS = "controller.quorum.fetch.timeout.ms";
    public static final String ELECTION_BACKOFF_MAX_MS = "controller.quorum.election.backoff.max.ms";
    public static final String APPEND_LINGER_MS = "controller.quorum.append.linger.ms";
    public static final String REQUEST_TIMEOUT_MS = "controller.quorum.request.timeout.ms";
    public static final String RETRY_BACKOFF_MS = "controller.quorum.retry.backoff.ms";
    public static final String FETCH_WAIT_MAX_MS = "controller.quorum.fetch.wait.max.ms";
    public static final String SNAPSHOT_TRIGGER_BYTES = "metadata.log.max.record.bytes.between.snapshots";
    public static final String IDLE_INTERVAL_MS = "metadata.max.idle.interval.ms";
    public static final String AUTHORIZER_ENABLED = "authorizer.enabled";
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    public static final String SSL_KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String SSL_TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String LISTENER_SECURITY_PROTOCOL_MAP = "listener.security.protocol.map";
    public static final String CONTROLLER_LISTENER_NAMES = "controller.listener.names";
    public static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";
    public static final String SSL_CLIENT_AUTH = "ssl.client.auth";
    public static final String SSL_PRINCIPAL_MAPPING_RULES = "ssl.principal.mapping.rules";
    public static final String SUPER_USERS = "super.users";
    public static final String METRICS_LISTENER = "metrics.listener";
    public static final String SOCKET_REQUEST_MAX_BYTES = "socket.request.max.bytes";
    public static final String CONNECTIONS_MAX_IDLE_MS = "connections.max.idle.ms";
    public static final String SASL_ENABLED_MECHANISMS = "sasl.enabled.mechanisms";
    public static final String SASL_SERVER_MAX_RECEIVE_SIZE = "sasl.server.max.receive.size";
    public static final String CONNECTION_FAILED_AUTHENTICATION_DELAY_MS = "connection.failed.authentication.delay.ms";
    public static final String CONNECTIONS_MAX_REAUTH_MS = "connections.max.reauth.ms";

    /** By name, in the order of docs/configuration.md's table. */
    public static final Map<String, ConfigKey> ALL = index(List.of(
            ConfigKey.required(PROCESS_ROLES, ConfigType.LIST),
            ConfigKey.required(NODE_ID, ConfigType.INT),
            ConfigKey.required(QUORUM_VOTERS, ConfigType.STRING),
            ConfigKey.required(LISTENERS, ConfigType.STRING),
            ConfigKey.withDefault(LISTENER_SECURITY_PROTOCOL_MAP, ConfigType.STRING, ListenerSpec.DEFAULT_PROTOCOL_MAP),
            ConfigKey.optional(CONTROLLER_LISTENER_NAMES, ConfigType.LIST),
            ConfigKey.optional(INTER_BROKER_LISTENER_NAME, ConfigType.STRING),
            ConfigKey.required(METADATA_LOG_DIR, ConfigType.STRING),
            ConfigKey.optional(LOG_DIRS, ConfigType.LIST),
            ConfigKey.optional("broker.rack", ConfigType.STRING),
            ConfigKey.withDefault(ELECTION_TIMEOUT_MS, ConfigType.INT, "1000"),
            ConfigKey.withDefault(FETCH_TIMEOUT_MS, ConfigType.INT, "2000"),
            ConfigKey.withDefault(ELECTION_BACKOFF_MAX_MS, ConfigType.INT, "1000"),
            ConfigKey.withDefault(APPEND_LINGER_MS, ConfigType.INT, "0"),
            ConfigKey.withDefault(REQUEST_TIMEOUT_MS, ConfigType.INT, "2000"),
            ConfigKey.withDefault(RETRY_BACKOFF_MS, ConfigType.INT, "20"),
            ConfigKey.withDefault(FETCH_WAIT_MAX_MS, ConfigType.INT, "500"),
            ConfigKey.withDefault("broker.heartbeat.interval.ms", ConfigType.INT, "2000"),
            ConfigKey.withDefault("broker.session.timeout.ms", ConfigType.INT, "9000"),
            ConfigKey.withDefault("num.partitions", ConfigType.INT, "1"),
            ConfigKey.withDefault("default.replication.factor", ConfigType.INT, "1"),
            ConfigKey.withDefault("delete.stale.topic.delay.ms", ConfigType.LONG, "14400000"),
            ConfigKey.withDefault(SNAPSHOT_TRIGGER_BYTES, ConfigType.LONG, "20971520"),
            ConfigKey.withDefault(IDLE_INTERVAL_MS, ConfigType.INT, "500"),
            ConfigKey.optional("create.topic.policy.class.name", ConfigType.CLASS),
            ConfigKey.withDefault(AUTHORIZER_ENABLED, ConfigType.BOOLEAN, "false"),
            ConfigKey.optional(SUPER_USERS, ConfigType.STRING),
            ConfigKey.withDefault(ALLOW_EVERYONE_IF_NO_ACL_FOUND, ConfigType.BOOLEAN, "false"),
            ConfigKey.optional(SSL_KEYSTORE_LOCATION, ConfigType.STRING),
            ConfigKey.optional(SslSettings.KEYSTORE_PASSWORD, ConfigType.STRING),
            ConfigKey.optional(SslSettings.KEYSTORE_TYPE, ConfigType.STORE_TYPE),
            ConfigKey.optional(SslSettings.KEYSTORE_CERTIFICATE_CHAIN, ConfigType.STRING),
            ConfigKey.optional(SslSettings.KEYSTORE_KEY, ConfigType.STRING),
            ConfigKey.optional(SslSettings.KEY_PASSWORD, ConfigType.STRING),
            ConfigKey.optional(SSL_TRUSTSTORE_LOCATION, ConfigType.STRING),
            ConfigKey.optional(SslSettings.TRUSTSTORE_PASSWORD, ConfigType.STRING),
            ConfigKey.optional(SslSettings.TRUSTSTORE_TYPE, ConfigType.STORE_TYPE),
            ConfigKey.optional(SslSettings.TRUSTSTORE_CERTIFICATES, ConfigType.STRING),
            ConfigKey.withDefault(SSL_CLIENT_AUTH, ConfigType.SSL_CLIENT_AUTH, "none"),
            ConfigKey.withDefault(SslSettings.ENABLED_PROTOCOLS, ConfigType.STRING, SslSettings.DEFAULT_PROTOCOLS),
            ConfigKey.optional(SslSettings.CIPHER_SUITES, ConfigType.STRING),
            ConfigKey.withDefault(SSL_PRINCIPAL_MAPPING_RULES, ConfigType.STRING, "DEFAULT"),
            ConfigKey.optional(METRICS_LISTENER, ConfigType.STRING),
            ConfigKey.withDefault(SOCKET_REQUEST_MAX_BYTES, ConfigType.INT, "104857600"),
            ConfigKey.withDefault(CONNECTIONS_MAX_IDLE_MS, ConfigType.LONG, "600000"),
            ConfigKey.optional(SASL_ENABLED_MECHANISMS, ConfigType.LIST),
            ConfigKey.withDefault(SASL_SERVER_MAX_RECEIVE_SIZE, ConfigType.INT, "524288"),
            ConfigKey.withDefault(CONNECTION_FAILED_AUTHENTICATION_DELAY_MS, ConfigType.INT, "100"),
            ConfigKey.withDefault(CONNECTIONS_MAX_REAUTH_MS, ConfigType.LONG, "0")));

    private ConfigKeys() {
    }

    private static Map<String, ConfigKey> index(List<ConfigKey> keys) {
        Map<String, ConfigKey> byName = new LinkedHashMap<>();
        for (ConfigKey key : keys) {
            byName.put(key.name(), key);
        }
        return Collections.unmodifiableMap(byName);
    }
}
