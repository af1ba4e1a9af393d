package io.metaquorum.metadata.image;

import io.metaquorum.common.invariant.Invariants;
import io.vavr.collection.SortedSet;
import io.vavr.collection.TreeSet;

/**
 * How one topic changed between two images (an entry of {@link TopicChanges}): as a whole,
 * because it was created or removed in between (or both, under the same id), so that every
 * partition it has on either side counts as changed; or partition by partition, for a topic
 * on both sides, listing the partitions added or changed (replicas, ISR, leader or epochs).
 *
 * <p>Invariant: a whole change lists no partitions; a partial one lists at least one, each
 * {@code >= 0}.
 *
 * @param whole      true when the topic was created or removed in between
 * @param partitions the partitions added or changed, ascending; empty when {@code whole}
 */
public record TopicChange(boolean whole, SortedSet<Integer> partitions) {
    /** The topic was created or removed in between: look at all of it. */
    public static final TopicChange WHOLE = new TopicChange(true, TreeSet.empty());

    public TopicChange {
        Invariants.check(whole == partitions.isEmpty(), "a topic change is whole (%s) exactly when it lists no "
                + "partition (%s)", whole, partitions);
        Invariants.check(partitions.isEmpty() || partitions.head() >= 0, "a negative partition in %s", partitions);
    }

    /** The change of partitions {@code partitions} (not empty) of a topic on both sides. */
    public static TopicChange ofPartitions(SortedSet<Integer> partitions) {
        return new TopicChange(false, partitions);
    }

    /** What changed over this span and {@code other}'s together; the larger set absorbs the smaller. */
    public TopicChange union(TopicChange other) {
        if (whole || other.whole) {
            return WHOLE;
        }
        SortedSet<Integer> larger = partitions.size() >= other.partitions.size() ? partitions : other.partitions;
        SortedSet<Integer> smaller = larger == partitions ? other.partitions : partitions;
        return ofPartitions(larger.addAll(smaller));
    }
}
