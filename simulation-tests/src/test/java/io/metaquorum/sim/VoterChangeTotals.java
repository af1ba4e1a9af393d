package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a membership sweep counts over its seeds: the voter changes committed, the seeds that
 * made any, and the seeds that ended beyond the disk-loss bound ({@link Simulation#BEYOND_DISK_LOSS_BOUND}),
 * with the two assertions every such sweep makes at its end.
 */
final class VoterChangeTotals {
    private final String sweep;
    private long voterChanges;
    private long seedsWithChanges;
    private long beyondBound;

    VoterChangeTotals(String sweep) {
        this.sweep = sweep;
    }

    synchronized void add(SimulationResult result) {
        voterChanges += result.stats().voterChanges();
        seedsWithChanges += result.stats().voterChanges() > 0 ? 1 : 0;
        if (Simulation.BEYOND_DISK_LOSS_BOUND.equals(result.phase())) {
            beyondBound++;
            System.out.println(sweep + ": seed " + result.options().seed() + " ended beyond the disk-loss bound"
                    + " (liveness not judged)");
        }
    }

    @Override
    public synchronized String toString() {
        return voterChanges + " voter changes committed on " + seedsWithChanges + " seeds; " + beyondBound
                + " ended beyond the disk-loss bound";
    }

    /** Most of {@code seeds} changed the voters, and at most 1 in {@code beyondBoundOneIn} ended beyond the bound. */
    synchronized void assertExercised(int seeds, int beyondBoundOneIn) {
        assertTrue(seedsWithChanges * 2 >= seeds, "fewer than half the seeds changed the voters: " + seedsWithChanges);
        assertTrue(beyondBound * beyondBoundOneIn <= seeds, "more than 1 seed in " + beyondBoundOneIn
                + " ended beyond the disk-loss bound: " + beyondBound);
    }
}
