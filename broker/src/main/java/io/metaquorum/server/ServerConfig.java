package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.SslSettings;
import io.metaquorum.server.kafka.SaslListenerSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A node's configuration: Java properties with Kafka's key names (docs/configuration.md), parsed and
 * validated at once so that a bad file stops start-up with one line naming the key.
 *
 * <p>Checks, in order: unknown keys; each value's type; required keys; ranges; relations
 * between values (the listener's security protocol and its {@code ssl.*} and SASL keys, the raft
 * timers' {@code validate()}, a controller's listener port matching its voter entry, or a
 * fixed port for a controller not yet among the voters). Immutable.
 */
public final class ServerConfig {
    public static final String ROLE_CONTROLLER = "controller";
    public static final String ROLE_BROKER = "broker";

    private final Map<String, Object> values;
    private final Map<Integer, HostPort> voters;
    private final NodeListeners listeners;
    private final Optional<SslSettings> ssl;
    private final Map<String, SaslListenerSettings> sasl;

    private ServerConfig(Map<String, Object> values, Map<Integer, HostPort> voters, NodeListeners listeners,
                         Optional<SslSettings> ssl, Map<String, SaslListenerSettings> sasl) {
        this.values = values;
        this.voters = voters;
        this.listeners = listeners;
        this.ssl = ssl;
        this.sasl = sasl;
    }

    /** Reads and parses a properties file; an unreadable file is reported under its path. */
    public static ServerConfig load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw ConfigException.withMessage(file.toString(),
                    "cannot read configuration file " + file + ": " + e.getMessage());
        }
        Map<String, String> raw = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            raw.put(name, properties.getProperty(name));
        }
        return parse(raw);
    }

    /** Parses raw key/value text; throws {@link ConfigException} naming the first bad key. */
    public static ServerConfig parse(Map<String, String> raw) {
        Map<String, String> sorted = new TreeMap<>(raw);
        for (String name : sorted.keySet()) {
            if (!ConfigKeys.ALL.containsKey(name) && !SaslListenerConfig.isListenerKey(name)) {
                throw new ConfigException(name, "unknown configuration key");
            }
        }
        Map<String, Object> values = new HashMap<>();
        for (ConfigKey key : ConfigKeys.ALL.values()) {
            String text = sorted.containsKey(key.name()) ? sorted.get(key.name()).trim() : key.defaultValue();
            boolean missing = text == null || text.isEmpty() && key.required();
            if (missing && key.required()) {
                throw new ConfigException(key.name(), "is required but not set");
            }
            if (missing) {
                continue;
            }
            values.put(key.name(), key.type().parse(key.name(), text));
        }
        List<ListenerSpec> all = ListenerSpec.parseAll((String) values.get(ConfigKeys.LISTENERS),
                (String) values.get(ConfigKeys.LISTENER_SECURITY_PROTOCOL_MAP));
        @SuppressWarnings("unchecked")
        List<String> roles = (List<String>) values.get(ConfigKeys.PROCESS_ROLES);
        @SuppressWarnings("unchecked")
        List<String> controllerNames = (List<String>) values.get(ConfigKeys.CONTROLLER_LISTENER_NAMES);
        NodeListeners listeners = NodeListeners.choose(all, roles.contains(ROLE_CONTROLLER),
                roles.contains(ROLE_BROKER), controllerNames, (String) values.get(ConfigKeys.INTER_BROKER_LISTENER_NAME));
        Optional<SslSettings> ssl = ListenerSecurityChecks.ssl(all, sorted);
        Map<String, SaslListenerSettings> sasl = SaslListenerConfig.parse(listeners.kafka(), sorted, values);
        ServerConfig config = new ServerConfig(Collections.unmodifiableMap(values),
                QuorumVoters.parse((String) values.get(ConfigKeys.QUORUM_VOTERS)), listeners, ssl, Map.copyOf(sasl));
        ServerConfigChecks.check(config);
        return config;
    }

    @SuppressWarnings("unchecked")
    public List<String> processRoles() {
        return (List<String>) values.get(ConfigKeys.PROCESS_ROLES);
    }

    public boolean isController() {
        return processRoles().contains(ROLE_CONTROLLER);
    }

    public boolean isBroker() {
        return processRoles().contains(ROLE_BROKER);
    }

    public int nodeId() {
        return intValue(ConfigKeys.NODE_ID);
    }

    /** Voter id to address, sorted by id. */
    public Map<Integer, HostPort> voters() {
        return voters;
    }

    /** The configured gRPC listener address (port 0: any free port, for brokers). */
    public HostPort listener() {
        return listeners.grpc().address();
    }

    /** The gRPC listener with its name and security protocol. */
    public ListenerSpec listenerSpec() {
        return listeners.grpc();
    }

    /**
     * The listeners that speak Kafka's own protocol: every entry of {@code listeners} but the
     * gRPC one, in their order; empty (none served) when there is only the gRPC one.
     */
    public List<ListenerSpec> kafkaListeners() {
        return listeners.kafka();
    }

    /** {@code socket.request.max.bytes}: the largest request frame a Kafka-protocol listener reads. */
    public int kafkaRequestBytesMax() {
        return intValue(ConfigKeys.SOCKET_REQUEST_MAX_BYTES);
    }

    /** {@code connections.max.idle.ms}: a Kafka-protocol connection idle this long is closed. */
    public long kafkaConnectionIdleMsMax() {
        return longValue(ConfigKeys.CONNECTIONS_MAX_IDLE_MS);
    }

    /**
     * The TLS settings shared by every SSL listener (gRPC or Kafka-protocol); empty when no
     * listener is SSL.
     */
    public Optional<SslSettings> ssl() {
        return ssl;
    }

    /**
     * How a SASL_PLAINTEXT or SASL_SSL Kafka-protocol listener authenticates its clients;
     * empty for any other listener.
     */
    public Optional<SaslListenerSettings> sasl(String listenerName) {
        return Optional.ofNullable(sasl.get(listenerName));
    }

    /**
     * Where the Prometheus endpoint listens ({@code metrics.listener}, docs/metrics.md); empty
     * when the key is absent, which turns it off. Port 0 binds any free port.
     */
    public Optional<HostPort> metricsListener() {
        String text = (String) values.get(ConfigKeys.METRICS_LISTENER);
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(HostPort.parse(text));
    }

    public ClientAuthMode clientAuth() {
        return ClientAuthMode.parse((String) values.get(ConfigKeys.SSL_CLIENT_AUTH));
    }

    public Path metadataLogDir() {
        return Path.of((String) values.get(ConfigKeys.METADATA_LOG_DIR));
    }

    /** The broker's partition directories; empty for a controller-only node. */
    @SuppressWarnings("unchecked")
    public List<Path> logDirs() {
        List<String> dirs = (List<String>) values.getOrDefault(ConfigKeys.LOG_DIRS, List.of());
        return dirs.stream().map(Path::of).toList();
    }

    public RaftTimeouts raftTimeouts() {
        return new RaftTimeouts(intValue(ConfigKeys.ELECTION_TIMEOUT_MS), intValue(ConfigKeys.FETCH_TIMEOUT_MS),
                intValue(ConfigKeys.ELECTION_BACKOFF_MAX_MS), intValue(ConfigKeys.APPEND_LINGER_MS),
                intValue(ConfigKeys.REQUEST_TIMEOUT_MS), intValue(ConfigKeys.RETRY_BACKOFF_MS),
                intValue(ConfigKeys.FETCH_WAIT_MAX_MS));
    }

    public long snapshotTriggerBytes() {
        return longValue(ConfigKeys.SNAPSHOT_TRIGGER_BYTES);
    }

    public int idleIntervalMs() {
        return intValue(ConfigKeys.IDLE_INTERVAL_MS);
    }

    public int intValue(String key) {
        return (Integer) values.get(key);
    }

    public long longValue(String key) {
        return (Long) values.get(key);
    }

    public boolean booleanValue(String key) {
        return (Boolean) values.get(key);
    }

    /** The typed value of a key, or null when it is unset and has no default. */
    public Object value(String key) {
        return values.get(key);
    }
}
