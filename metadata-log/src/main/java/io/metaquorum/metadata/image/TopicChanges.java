package io.metaquorum.metadata.image;

import io.vavr.Tuple2;
import io.vavr.collection.TreeMap;
import io.vavr.collection.TreeSet;
import java.util.BitSet;
import java.util.Map;

/**
 * Which topics, and which of their partitions, changed between two images of the same log
 * (Kafka's {@code TopicsDelta}, kept to what changed; a broker picks its own partitions out of
 * it as {@code TopicsDelta.localChanges} does). {@link MetadataDelta} records it while it
 * replays, one entry per topic record, so it costs what the change costs and never a walk of
 * the image. It covers the {@link TopicsImage} only: configs, brokers, features and ACLs are
 * not listed.
 *
 * <p>It is kept beside the image ({@link ImageUpdate}), never inside it: two nodes at the same
 * offset hold equal images however they got there (replay, snapshot), but not equal changes.
 *
 * <p>It may list more than what differs, never less: a partition changed and changed back is
 * still listed, so a consumer compares what is listed with the image. {@link #UNKNOWN} is for
 * an image that replaced the one before it whole (a snapshot load): the consumer compares
 * everything, once.
 *
 * <p>Invariant: {@link #UNKNOWN} lists nothing. Persistent (vavr) maps and sets, so that
 * {@link #union} costs the smaller side, however long a consumer that lags behind keeps
 * merging.
 */
public final class TopicChanges {
    /** Nothing changed in the topics. */
    public static final TopicChanges NONE = new TopicChanges(false, TreeMap.empty());
    /** The changes are not known: compare every topic. */
    public static final TopicChanges UNKNOWN = new TopicChanges(true, TreeMap.empty());

    private final boolean unknown;
    private final TreeMap<UuidKey, TopicChange> byId;

    private TopicChanges(boolean unknown, TreeMap<UuidKey, TopicChange> byId) {
        this.unknown = unknown;
        this.byId = byId;
    }

    /** True when the changes are not known and the consumer must compare every topic. */
    public boolean isUnknown() {
        return unknown;
    }

    /** True when no topic changed (and that is known). */
    public boolean isEmpty() {
        return !unknown && byId.isEmpty();
    }

    /** The changed topics by id, ascending; empty when {@link #isUnknown()}. */
    public TreeMap<UuidKey, TopicChange> byId() {
        return byId;
    }

    /** How topic {@code id} changed, or null when it did not (or the changes are unknown). */
    public TopicChange topic(UuidKey id) {
        return byId.get(id).getOrNull();
    }

    /** The changes over this span and {@code other}'s together (of two spans of the same log that meet or overlap). */
    public TopicChanges union(TopicChanges other) {
        if (unknown || other.unknown) {
            return UNKNOWN;
        }
        TreeMap<UuidKey, TopicChange> larger = byId.size() >= other.byId.size() ? byId : other.byId;
        TreeMap<UuidKey, TopicChange> smaller = larger == byId ? other.byId : byId;
        for (Tuple2<UuidKey, TopicChange> entry : smaller) {
            larger = larger.put(entry._1, entry._2, TopicChange::union);
        }
        return new TopicChanges(false, larger);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicChanges other && unknown == other.unknown && byId.equals(other.byId);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(unknown) * 31 + byId.hashCode();
    }

    @Override
    public String toString() {
        return unknown ? "TopicChanges(unknown)" : byId.mkString("TopicChanges(", ", ", ")");
    }

    /**
     * Collects the changes of one {@link MetadataDelta}, record by record. Mutable, for the
     * replay path: the topic of the previous record is kept at hand, since a topic's records
     * come together (its TopicRecord, then its PartitionRecords).
     */
    static final class Builder {
        /** Per topic: whole, or the partitions changed (null when whole). */
        private final java.util.TreeMap<UuidKey, BitSet> topics = new java.util.TreeMap<>();
        private UuidKey lastId;
        private BitSet lastPartitions;

        /** Topic {@code id} was created or removed. */
        void whole(UuidKey id) {
            topics.put(id, null);
            lastId = id;
            lastPartitions = null;
        }

        /** Partition {@code partition} of topic {@code id} was added or changed. */
        void partition(UuidKey id, int partition) {
            if (!id.equals(lastId)) {
                lastId = id;
                lastPartitions = topics.containsKey(id) ? topics.get(id) : newPartitions(id);
            }
            if (lastPartitions != null) {
                lastPartitions.set(partition);
            }
        }

        private BitSet newPartitions(UuidKey id) {
            BitSet partitions = new BitSet();
            topics.put(id, partitions);
            return partitions;
        }

        /** The changes collected so far. */
        TopicChanges build() {
            if (topics.isEmpty()) {
                return NONE;
            }
            TreeMap<UuidKey, TopicChange> byId = TreeMap.empty();
            for (Map.Entry<UuidKey, BitSet> entry : topics.entrySet()) {
                BitSet partitions = entry.getValue();
                byId = byId.put(entry.getKey(), partitions == null ? TopicChange.WHOLE
                        : TopicChange.ofPartitions(TreeSet.ofAll(partitions.stream().toArray())));
            }
            return new TopicChanges(false, byId);
        }
    }
}
