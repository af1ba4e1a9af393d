package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.ErrorCode;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The topic configs of Kafka 4.4.0 (docs/kafka-compatibility.md, from {@code LogConfig}): name,
 * type, default and valid values; {@link #check} refuses an unknown name or a bad value with
 * INVALID_CONFIG naming the key, in Kafka's words.
 */
public final class TopicConfigCatalog {
    /** How a value is parsed. */
    public enum Type { BOOLEAN, INT, LONG, DOUBLE, STRING, LIST }

    /** One known config; {@code rule} checks a parsed value and says what is wrong, or null. */
    public record Entry(String name, Type type, String defaultValue, Rule rule) {
    }

    @FunctionalInterface
    interface Rule {
        /** What is wrong with {@code value} (already parsed by its type), or null. */
        String violation(String value);
    }

    private static final Pattern THROTTLED = Pattern.compile("\\s*\\d+\\s*:\\s*\\d+\\s*(,\\s*\\d+\\s*:\\s*\\d+\\s*)*");
    private static final Map<String, Entry> ENTRIES = entries();

    private TopicConfigCatalog() {
    }

    private static Map<String, Entry> entries() {
        TreeMap<String, Entry> all = new TreeMap<>();
        for (Entry e : List.of(
                list("cleanup.policy", "delete", eachOneOf("compact", "delete")),
                new Entry("compression.gzip.level", Type.INT, "-1", gzipLevel()),
                new Entry("compression.lz4.level", Type.INT, "9", between(1, 17)),
                new Entry("compression.type", Type.STRING, "producer",
                        oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
                new Entry("compression.zstd.level", Type.INT, "3", between(-131072, 22)),
                longAtLeast("delete.retention.ms", "86400000", 0),
                bool("errors.deadletterqueue.group.enable"),
                longAtLeast("file.delete.delay.ms", "60000", 0),
                longAtLeast("flush.messages", Long.toString(Long.MAX_VALUE), 1),
                longAtLeast("flush.ms", Long.toString(Long.MAX_VALUE), 0),
                list("follower.replication.throttled.replicas", "", TopicConfigCatalog::throttledReplicas),
                new Entry("index.interval.bytes", Type.INT, "4096", atLeast(0)),
                list("leader.replication.throttled.replicas", "", TopicConfigCatalog::throttledReplicas),
                longAtLeast("local.retention.bytes", "-2", -2),
                longAtLeast("local.retention.ms", "-2", -2),
                longAtLeast("max.compaction.lag.ms", Long.toString(Long.MAX_VALUE), 1),
                new Entry("max.decompressed.message.bytes", Type.INT, "2147483639", between(1, 2147483639)),
                new Entry("max.message.bytes", Type.INT, "1048588", atLeast(0)),
                longAtLeast("message.timestamp.after.max.ms", "3600000", 0),
                longAtLeast("message.timestamp.before.max.ms", Long.toString(Long.MAX_VALUE), 0),
                new Entry("message.timestamp.type", Type.STRING, "CreateTime", oneOf("CreateTime", "LogAppendTime")),
                new Entry("min.cleanable.dirty.ratio", Type.DOUBLE, "0.5", TopicConfigCatalog::ratio),
                longAtLeast("min.compaction.lag.ms", "0", 0),
                new Entry("min.insync.replicas", Type.INT, "1", atLeast(1)),
                bool("preallocate"),
                longAtLeast("remote.copy.lag.bytes", "-1", -1),
                longAtLeast("remote.copy.lag.ms", "0", -1),
                bool("remote.log.copy.disable"),
                bool("remote.log.delete.on.disable"),
                bool("remote.storage.enable"),
                new Entry("retention.bytes", Type.LONG, "-1", value -> null),
                longAtLeast("retention.ms", "604800000", -1),
                new Entry("segment.bytes", Type.INT, "1073741824", atLeast(1048576)),
                new Entry("segment.index.bytes", Type.INT, "10485760", atLeast(4)),
                longAtLeast("segment.jitter.ms", "0", 0),
                longAtLeast("segment.ms", "604800000", 1),
                bool("unclean.leader.election.enable"))) {
            all.put(e.name(), e);
        }
        return all;
    }

    /** The known topic configs by name, sorted. */
    public static Map<String, Entry> entriesByName() {
        return Collections.unmodifiableMap(ENTRIES);
    }

    /** INVALID_CONFIG for an unknown name, a null value or a bad value; empty when fine. */
    public static Optional<ApiError> check(String name, String value) {
        Entry entry = ENTRIES.get(name);
        if (entry == null) {
            return invalid("Unknown topic config name: " + name);
        }
        if (value == null) {
            return invalid("Config " + name + " has no value; a topic config needs one.");
        }
        String violation = typeViolation(entry.type(), value.trim());
        if (violation == null) {
            violation = entry.rule().violation(value.trim());
        }
        return violation == null ? Optional.empty()
                : invalid("Invalid value " + value + " for configuration " + name + ": " + violation);
    }

    /** INVALID_CONFIG when {@code name} is not a topic config (a DELETE of it); empty when known. */
    public static Optional<ApiError> checkName(String name) {
        return ENTRIES.containsKey(name) ? Optional.empty() : invalid("Unknown topic config name: " + name);
    }

    private static String typeViolation(Type type, String value) {
        try {
            switch (type) {
                case INT -> Integer.parseInt(value);
                case LONG -> Long.parseLong(value);
                case DOUBLE -> Double.parseDouble(value);
                case BOOLEAN -> {
                    if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                        return "Must be true or false";
                    }
                }
                case STRING, LIST -> {
                    // Any string parses; the rule checks the contents.
                }
            }
        } catch (NumberFormatException e) {
            return "Not a number of type " + type;
        }
        return null;
    }

    private static Entry bool(String name) {
        return new Entry(name, Type.BOOLEAN, "false", value -> null);
    }

    private static Entry list(String name, String defaultValue, Rule rule) {
        return new Entry(name, Type.LIST, defaultValue, rule);
    }

    private static Entry longAtLeast(String name, String defaultValue, long min) {
        return new Entry(name, Type.LONG, defaultValue, atLeast(min));
    }

    private static Rule atLeast(long min) {
        return value -> Long.parseLong(value) < min ? "Value must be at least " + min : null;
    }

    private static Rule between(long min, long max) {
        return value -> {
            long parsed = Long.parseLong(value);
            if (parsed < min) {
                return "Value must be at least " + min;
            }
            return parsed > max ? "Value must be no more than " + max : null;
        };
    }

    private static Rule gzipLevel() {
        return value -> {
            int level = Integer.parseInt(value);
            return level == -1 || (level >= 1 && level <= 9) ? null : "Value must be between 1 and 9, or -1";
        };
    }

    private static String ratio(String value) {
        double parsed = Double.parseDouble(value);
        if (!(parsed >= 0)) {
            return "Value must be at least 0.0";
        }
        return parsed > 1 ? "Value must be no more than 1.0" : null;
    }

    private static Rule oneOf(String... allowed) {
        List<String> values = List.of(allowed);
        return value -> values.contains(value) ? null : "String must be one of: " + String.join(", ", values);
    }

    private static Rule eachOneOf(String... allowed) {
        List<String> values = List.of(allowed);
        String message = "String must be one of: " + String.join(", ", values);
        return value -> {
            for (String item : value.split(",", -1)) {
                if (!values.contains(item.trim())) {
                    return message;
                }
            }
            return null;
        };
    }

    private static String throttledReplicas(String value) {
        if (value.isEmpty() || value.equals("*") || THROTTLED.matcher(value).matches()) {
            return null;
        }
        return "Must be '*' or a comma-separated list of partitionId:brokerId pairs";
    }

    private static Optional<ApiError> invalid(String message) {
        return Optional.of(ApiError.of(ErrorCode.INVALID_CONFIG, message));
    }
}
