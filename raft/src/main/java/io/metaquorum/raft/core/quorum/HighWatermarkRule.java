package io.metaquorum.raft.core.quorum;

import java.util.Arrays;

/**
 * Where the leader's high watermark may go (KIP-595; Raft §5.4.2): the one place the safety
 * of commitment is decided. The checker self-test runs the simulation with this class
 * replaced by a broken twin of the same name (simulation-tests, {@code src/main/broken-rules},
 * loaded by {@code MutantClassLoader}) to prove the invariants catch a wrong rule; so the
 * decision stays in a static method, not a constant a caller could inline.
 */
public final class HighWatermarkRule {
    private HighWatermarkRule() {
    }

    /**
     * The largest offset that a majority of voters (leader included) has durably, but only
     * once it is above {@code epochStartOffset}, i.e. once an entry of the current epoch is on
     * a majority. Counting replicas alone never commits an older epoch's entry (the Figure 8
     * case of the Raft paper). Never moves backwards.
     *
     * @param voterEndOffsets      the flushed end offset of every voter, the leader's own included
     * @param epochStartOffset     the log end offset when the leader took office
     * @param currentHighWatermark -1 while none is known in this epoch
     * @return the new high watermark
     */
    public static long next(long[] voterEndOffsets, long epochStartOffset, long currentHighWatermark) {
        long majorityOffset = majorityOffset(voterEndOffsets);
        if (majorityOffset <= epochStartOffset) {
            return currentHighWatermark;
        }
        return Math.max(majorityOffset, currentHighWatermark);
    }

    /** The largest offset at or below which a majority of the given end offsets lie. */
    public static long majorityOffset(long[] voterEndOffsets) {
        long[] sorted = voterEndOffsets.clone();
        Arrays.sort(sorted);
        // Ascending: the element at index (n - majority) is reached by a majority of voters.
        return sorted[sorted.length - (sorted.length / 2 + 1)];
    }
}
