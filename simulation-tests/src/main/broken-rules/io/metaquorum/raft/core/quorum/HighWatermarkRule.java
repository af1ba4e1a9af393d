package io.metaquorum.raft.core.quorum;

import java.util.Arrays;

/**
 * BROKEN twin of the raft module's {@code HighWatermarkRule}, for the checker self-test only
 * (variant {@code hw-over-old-epoch}): it counts the majority like the production rule but
 * never waits for an entry of the current epoch, so a new leader commits entries of older
 * epochs by counting replicas (the Figure 8 case of the Raft paper). Compiled to a directory
 * no class path names; {@code io.metaquorum.sim.mutation.MutantClassLoader} loads it in place
 * of the production class. Same public members as the production class.
 */
public final class HighWatermarkRule {
    private HighWatermarkRule() {
    }

    public static long next(long[] voterEndOffsets, long epochStartOffset, long currentHighWatermark) {
        return Math.max(majorityOffset(voterEndOffsets), currentHighWatermark);
    }

    public static long majorityOffset(long[] voterEndOffsets) {
        long[] sorted = voterEndOffsets.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length - (sorted.length / 2 + 1)];
    }
}
