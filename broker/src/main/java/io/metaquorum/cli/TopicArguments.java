package io.metaquorum.cli;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parsing of the admin tools' argument values, each failure an {@link AdminError} naming the
 * code a node would answer for the same mistake (kafka-topics.sh checks these before it asks).
 */
final class TopicArguments {
    static final int REPLICATION_FACTOR_MAX = Short.MAX_VALUE;

    private TopicArguments() {
    }

    /** {@code --bootstrap-server}: one or more {@code HOST:PORT}, comma-separated or repeated. */
    static List<HostPort> bootstrap(List<String> values) {
        List<HostPort> nodes = new ArrayList<>();
        for (String value : values == null ? List.<String>of() : values) {
            if (value.isBlank()) {
                continue;
            }
            try {
                HostPort node = HostPort.parse(value);
                if (node.port() == 0) {
                    throw new IllegalArgumentException("port 0 in '" + value.trim() + "' is not a real port");
                }
                nodes.add(node);
            } catch (IllegalArgumentException e) {
                throw new AdminError(ErrorCode.INVALID_REQUEST, "--bootstrap-server: " + e.getMessage());
            }
        }
        if (nodes.isEmpty()) {
            throw new AdminError(ErrorCode.INVALID_REQUEST,
                    "--bootstrap-server HOST:PORT[,HOST:PORT...] is required (any node's address works)");
        }
        return nodes;
    }

    /** {@code --topic}: names, comma-separated or repeated, each once, in the order given. */
    static List<String> topics(List<String> values) {
        Set<String> names = new LinkedHashSet<>();
        for (String value : values == null ? List.<String>of() : values) {
            String name = value.trim();
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return List.copyOf(names);
    }

    static void checkPartitions(Integer partitions) {
        if (partitions != null && partitions < 1) {
            throw new AdminError(ErrorCode.INVALID_PARTITIONS, "The number of partitions must be at least 1, got "
                    + partitions + ".");
        }
    }

    static void checkReplicationFactor(Integer replicationFactor) {
        if (replicationFactor != null && (replicationFactor < 1 || replicationFactor > REPLICATION_FACTOR_MAX)) {
            throw new AdminError(ErrorCode.INVALID_REPLICATION_FACTOR, "The replication factor must be between 1 and "
                    + REPLICATION_FACTOR_MAX + ", got " + replicationFactor + ".");
        }
    }

    /**
     * {@code --replica-assignment 4:5:6,5:6:4}: partitions by comma in index order, replicas by
     * colon, the first the preferred leader; every partition with the same number of distinct
     * brokers.
     */
    static List<List<Integer>> replicaAssignment(String text) {
        List<List<Integer>> partitions = new ArrayList<>();
        String[] items = text.split(",", -1);
        for (int partition = 0; partition < items.length; partition++) {
            List<Integer> replicas = new ArrayList<>();
            for (String broker : items[partition].split(":", -1)) {
                try {
                    replicas.add(Integer.parseInt(broker.trim()));
                } catch (NumberFormatException e) {
                    throw new AdminError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Partition " + partition
                            + " of --replica-assignment '" + text + "' has '" + broker.trim()
                            + "' where a broker id belongs.");
                }
            }
            if (new LinkedHashSet<>(replicas).size() != replicas.size()) {
                throw new AdminError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Partition " + partition
                        + " of --replica-assignment names a broker twice: " + items[partition].trim() + ".");
            }
            if (!partitions.isEmpty() && partitions.get(0).size() != replicas.size()) {
                throw new AdminError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Partition " + partition
                        + " of --replica-assignment has " + replicas.size() + " replicas, partition 0 has "
                        + partitions.get(0).size() + "; every partition needs the same number.");
            }
            partitions.add(List.copyOf(replicas));
        }
        return partitions;
    }

    /** {@code --config k=v} (repeated): each key once. */
    static Map<String, String> configs(List<String> entries) {
        Map<String, String> configs = new LinkedHashMap<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            int equals = entry.indexOf('=');
            if (equals <= 0 || entry.substring(0, equals).isBlank()) {
                throw new AdminError(ErrorCode.INVALID_CONFIG, "Invalid config entry '" + entry
                        + "': expected key=value.");
            }
            String key = entry.substring(0, equals).trim();
            if (configs.put(key, entry.substring(equals + 1)) != null) {
                throw new AdminError(ErrorCode.INVALID_CONFIG, "Config '" + key + "' is given twice.");
            }
        }
        return configs;
    }
}
