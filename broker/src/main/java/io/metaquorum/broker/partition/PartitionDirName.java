package io.metaquorum.broker.partition;

/**
 * What the name of an entry directly under a log dir says it is: a partition directory
 * {@code <topic>-<partition>}, a stray staged for deletion
 * {@code <topic>-<partition>.<stagedAtMs>[_<n>]-stray}, or something else, which the
 * LogManager never touches.
 *
 * <p>Topic names may themselves contain {@code -}, {@code .} and {@code _}, so the partition
 * is the digits after the <em>last</em> {@code -}, in canonical decimal (no sign, no leading
 * zero: {@code t-01} is not a partition directory, because the directory of partition 1 is
 * {@code t-1}). A stray name always ends in {@code -stray}, so it never parses as a partition
 * directory, whose name ends in a digit.
 *
 * <p>The stray name carries the time the stray was staged (Kafka's stray names carry a random
 * id instead, {@code <topic>-<partition>.<uuid>-stray}, KAFKA-14616): the deletion deadline
 * is {@code stagedAtMs + delete.stale.topic.delay.ms}, and keeping its input in the name makes
 * it survive restarts without a second file that could disagree with the directory. The
 * optional {@code _<n>} keeps two strays of the same partition staged in the same millisecond
 * apart. When the name would exceed {@value #NAME_LENGTH_MAX} characters the topic part is cut
 * (as Kafka does); the stray is still recognized and deleted on time, only its log line shows
 * the cut name.
 */
public sealed interface PartitionDirName {
    /** The longest file name on the file systems a log dir lives on (ext4, xfs). */
    int NAME_LENGTH_MAX = 255;
    /** Kafka's suffix for stray partition directories ({@code UnifiedLog.StrayDirSuffix}). */
    String STRAY_SUFFIX = "-stray";
    /** Kafka's topic-name limit (249), which also bounds what a directory name may hold. */
    int TOPIC_LENGTH_MAX = 249;

    /** {@code <topic>-<partition>}. */
    record Partition(String topic, int partition) implements PartitionDirName {
    }

    /** {@code <topic>-<partition>.<stagedAtMs>[_<n>]-stray}; {@code topic} may be cut (see the class comment). */
    record Stray(String topic, int partition, long stagedAtMs) implements PartitionDirName {
    }

    /** Anything else: left alone. */
    record Unrecognized() implements PartitionDirName {
    }

    /** The directory name of partition {@code partition} of {@code topic}. */
    static String partitionDir(String topic, int partition) {
        return topic + "-" + partition;
    }

    /**
     * The stray name for partition {@code partition} of {@code topic} staged at {@code stagedAtMs};
     * {@code sequence} 0 gives the plain name, n &gt; 0 appends {@code _n} (used when the plain
     * name is taken).
     */
    static String strayDir(String topic, int partition, long stagedAtMs, int sequence) {
        String unique = sequence == 0 ? Long.toString(stagedAtMs) : stagedAtMs + "_" + sequence;
        String tail = "-" + partition + "." + unique + STRAY_SUFFIX;
        int topicLength = Math.min(topic.length(), NAME_LENGTH_MAX - tail.length());
        return topic.substring(0, topicLength) + tail;
    }

    static PartitionDirName parse(String name) {
        if (name.endsWith(STRAY_SUFFIX)) {
            return parseStray(name.substring(0, name.length() - STRAY_SUFFIX.length()));
        }
        int dash = name.lastIndexOf('-');
        if (dash <= 0) {
            return new Unrecognized();
        }
        String topic = name.substring(0, dash);
        long partition = canonicalNumber(name.substring(dash + 1), Integer.MAX_VALUE);
        if (partition < 0 || !isTopicName(topic)) {
            return new Unrecognized();
        }
        return new Partition(topic, (int) partition);
    }

    private static PartitionDirName parseStray(String base) {
        int dot = base.lastIndexOf('.');
        if (dot <= 0) {
            return new Unrecognized();
        }
        String unique = base.substring(dot + 1);
        int underscore = unique.indexOf('_');
        String stagedAt = underscore < 0 ? unique : unique.substring(0, underscore);
        if (underscore >= 0 && canonicalNumber(unique.substring(underscore + 1), Integer.MAX_VALUE) <= 0) {
            return new Unrecognized();
        }
        long stagedAtMs = canonicalNumber(stagedAt, Long.MAX_VALUE);
        if (stagedAtMs < 0 || !(parse(base.substring(0, dot)) instanceof Partition partition)) {
            return new Unrecognized();
        }
        return new Stray(partition.topic(), partition.partition(), stagedAtMs);
    }

    /** The value of a canonical decimal (digits only, no leading zero) at most {@code max}, else -1. */
    private static long canonicalNumber(String digits, long max) {
        if (digits.isEmpty() || digits.length() > 19 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            int digit = c - '0';
            if (value > (max - digit) / 10) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    /** Kafka's legal topic names: 1-249 of {@code [a-zA-Z0-9._-]}, not {@code .} or {@code ..}. */
    private static boolean isTopicName(String topic) {
        if (topic.isEmpty() || topic.length() > TOPIC_LENGTH_MAX || topic.equals(".") || topic.equals("..")) {
            return false;
        }
        for (int i = 0; i < topic.length(); i++) {
            char c = topic.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return false;
            }
        }
        return true;
    }
}
