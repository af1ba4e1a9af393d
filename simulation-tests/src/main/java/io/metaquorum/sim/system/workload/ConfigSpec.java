package io.metaquorum.sim.system.workload;

import java.util.List;
import java.util.Optional;

/**
 * The topic configs the workload sets, with their types and valid ranges as Kafka 4.4.0
 * defines them (docs/kafka-compatibility.md, "Topic configs"), written down here
 * independently of the controller's catalog so that the reference model does not take the
 * controller's word for what is valid. A name outside this list is predicted unknown, so the
 * workload sets no other valid name.
 */
public enum ConfigSpec {
    CLEANUP_POLICY("cleanup.policy", Type.LIST, 0, 0, List.of("compact", "delete")),
    COMPRESSION_TYPE("compression.type", Type.STRING, 0, 0,
            List.of("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
    MIN_INSYNC_REPLICAS("min.insync.replicas", Type.INT, 1, Integer.MAX_VALUE, List.of()),
    RETENTION_MS("retention.ms", Type.LONG, -1, Long.MAX_VALUE, List.of()),
    SEGMENT_BYTES("segment.bytes", Type.INT, 1_048_576, Integer.MAX_VALUE, List.of()),
    MAX_MESSAGE_BYTES("max.message.bytes", Type.INT, 0, Integer.MAX_VALUE, List.of()),
    UNCLEAN_LEADER_ELECTION("unclean.leader.election.enable", Type.BOOLEAN, 0, 0, List.of());

    enum Type { INT, LONG, BOOLEAN, STRING, LIST }

    public final String configName;
    final Type type;
    final long min;
    final long max;
    final List<String> choices;

    ConfigSpec(String configName, Type type, long min, long max, List<String> choices) {
        this.configName = configName;
        this.type = type;
        this.min = min;
        this.max = max;
        this.choices = choices;
    }

    static Optional<ConfigSpec> byName(String name) {
        for (ConfigSpec spec : values()) {
            if (spec.configName.equals(name)) {
                return Optional.of(spec);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code name} may be set to {@code value}: a known name and a value of its type in its range. */
    public static boolean valid(String name, String value) {
        Optional<ConfigSpec> spec = byName(name);
        return spec.isPresent() && value != null && spec.get().accepts(value);
    }

    /** Whether {@code name} is a config that may be deleted (a known one). */
    public static boolean known(String name) {
        return byName(name).isPresent();
    }

    private boolean accepts(String value) {
        return switch (type) {
            case INT, LONG -> inRange(value);
            case BOOLEAN -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
            case STRING -> choices.contains(value);
            case LIST -> !value.isBlank() && List.of(value.split(",", -1)).stream().map(String::trim)
                    .allMatch(choices::contains);
        };
    }

    private boolean inRange(String value) {
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (type == Type.INT && (parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE)) {
            return false;
        }
        return parsed >= min && parsed <= max;
    }
}
