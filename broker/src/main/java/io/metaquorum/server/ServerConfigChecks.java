package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.security.SslPrincipalMapping;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The range and relation checks of {@link ServerConfig}, after every value has its type. */
final class ServerConfigChecks {
    private static final int REPLICATION_FACTOR_MAX = 32767;

    private ServerConfigChecks() {
    }

    static void check(ServerConfig config) {
        checkRoles(config.processRoles());
        atLeast(config, ConfigKeys.NODE_ID, 0);
        if (config.isBroker() && config.logDirs().isEmpty()) {
            throw new ConfigException(ConfigKeys.LOG_DIRS, "is required for a node with the broker role");
        }
        if (config.metadataLogDir().toString().isBlank()) {
            throw new ConfigException(ConfigKeys.METADATA_LOG_DIR, "must name a directory");
        }
        for (java.nio.file.Path logDir : config.logDirs()) {
            if (logDir.toAbsolutePath().normalize().equals(config.metadataLogDir().toAbsolutePath().normalize())) {
                throw new ConfigException(ConfigKeys.LOG_DIRS, "must not hold metadata.log.dir (" + logDir
                        + "): partition directories and the metadata log need a directory each");
            }
        }
        if (config.isController()) {
            checkVoterEntry(config);
        }
        checkKafkaListeners(config);
        checkMetricsListener(config);
        checkPrincipals(config);
        checkRaftTimeouts(config);
        atLeast(config, ConfigKeys.IDLE_INTERVAL_MS, 1);
        atLeast(config, ConfigKeys.SNAPSHOT_TRIGGER_BYTES, 1);
        atLeast(config, "num.partitions", 1);
        atLeast(config, "default.replication.factor", 1);
        if (config.intValue("default.replication.factor") > REPLICATION_FACTOR_MAX) {
            throw new ConfigException("default.replication.factor", "must be at most " + REPLICATION_FACTOR_MAX);
        }
        atLeast(config, "delete.stale.topic.delay.ms", 0);
        atLeast(config, "broker.heartbeat.interval.ms", 1);
        atLeast(config, "broker.session.timeout.ms", 1);
        if (config.intValue("broker.heartbeat.interval.ms") >= config.intValue("broker.session.timeout.ms")) {
            throw new ConfigException("broker.heartbeat.interval.ms", "("
                    + config.intValue("broker.heartbeat.interval.ms") + ") must be below broker.session.timeout.ms ("
                    + config.intValue("broker.session.timeout.ms") + ")");
        }
    }

    private static void checkRoles(List<String> roles) {
        if (roles.isEmpty()) {
            throw new ConfigException(ConfigKeys.PROCESS_ROLES, "must name controller, broker or controller,broker");
        }
        Set<String> seen = new HashSet<>();
        for (String role : roles) {
            if (!role.equals(ServerConfig.ROLE_CONTROLLER) && !role.equals(ServerConfig.ROLE_BROKER)) {
                throw new ConfigException(ConfigKeys.PROCESS_ROLES,
                        "unknown role '" + role + "'; expected controller, broker or controller,broker");
            }
            if (!seen.add(role)) {
                throw new ConfigException(ConfigKeys.PROCESS_ROLES, "role '" + role + "' is listed twice");
            }
        }
    }

    private static void checkVoterEntry(ServerConfig config) {
        HostPort entry = config.voters().get(config.nodeId());
        if (entry == null) {
            // A controller joining the quorum (KIP-853): an observer until mq-metadata add-controller
            // makes it a voter, reached then at the listener the VotersRecord names.
            if (config.listener().port() == 0) {
                throw new ConfigException(ConfigKeys.LISTENERS, "port 0 (any free port) is for brokers; a controller"
                        + " that is not in controller.quorum.voters " + config.voters().keySet() + " joins at a"
                        + " fixed port, which add-controller registers");
            }
            return;
        }
        int port = config.listener().port();
        if (port == 0) {
            // Its peers and the brokers dial it at its entry, written before it starts.
            throw new ConfigException(ConfigKeys.LISTENERS, "port 0 (any free port) is for brokers; a controller"
                    + " listens on the port of its entry " + config.nodeId() + "@" + entry
                    + " in controller.quorum.voters");
        }
        if (port != entry.port()) {
            throw new ConfigException(ConfigKeys.LISTENERS, "port " + port + " differs from this node's entry "
                    + config.nodeId() + "@" + entry + " in controller.quorum.voters");
        }
    }

    /** The Kafka-protocol listeners' limits: a frame must fit one request, and a connection may idle a while. */
    private static void checkKafkaListeners(ServerConfig config) {
        atLeast(config, ConfigKeys.SOCKET_REQUEST_MAX_BYTES, 1);
        atLeast(config, ConfigKeys.CONNECTIONS_MAX_IDLE_MS, 1);
    }

    /**
     * {@code metrics.listener}: a plain {@code HOST:PORT} (no listener name: it is plain HTTP)
     * that is not the node's gRPC listener.
     */
    private static void checkMetricsListener(ServerConfig config) {
        String text = (String) config.value(ConfigKeys.METRICS_LISTENER);
        if (text == null) {
            return;
        }
        if (text.isBlank() || text.contains("://")) {
            throw new ConfigException(ConfigKeys.METRICS_LISTENER, "expected HOST:PORT (plain HTTP, no listener"
                    + " name), got '" + text + "'");
        }
        HostPort metrics;
        try {
            metrics = HostPort.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKeys.METRICS_LISTENER, e.getMessage());
        }
        List<HostPort> listeners = new ArrayList<>(List.of(config.listener()));
        config.kafkaListeners().forEach(listener -> listeners.add(listener.address()));
        for (HostPort listener : listeners) {
            if (metrics.port() != 0 && metrics.port() == listener.port()) {
                throw new ConfigException(ConfigKeys.METRICS_LISTENER, "port " + metrics.port()
                        + " is the node's listeners port; the metrics endpoint needs a port of its own");
            }
        }
    }

    private static void checkPrincipals(ServerConfig config) {
        try {
            SslPrincipalMapping.parse((String) config.value(ConfigKeys.SSL_PRINCIPAL_MAPPING_RULES));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKeys.SSL_PRINCIPAL_MAPPING_RULES, e.getMessage());
        }
        try {
            NodeSecurity.superUsers(config);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKeys.SUPER_USERS, e.getMessage()
                    + "; expected principals separated by ';', such as User:CN=node-1;User:admin");
        }
    }

    private static void checkRaftTimeouts(ServerConfig config) {
        RaftTimeouts timeouts = config.raftTimeouts();
        try {
            timeouts.validate();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            String key = message.split(" ", 2)[0];
            throw ConfigException.withMessage(ConfigKeys.ALL.containsKey(key) ? key : "controller.quorum", message);
        }
    }

    private static void atLeast(ServerConfig config, String key, long min) {
        Object value = config.value(key);
        long number = value instanceof Integer i ? i : (Long) value;
        if (number < min) {
            throw new ConfigException(key, "must be at least " + min + ", got " + number);
        }
    }
}
