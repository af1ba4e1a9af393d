package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.fail;

import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import java.util.List;

/** Shared helpers of the simulation tests. */
final class SimRuns {
    /** Seeds the default test run sweeps; {@code -Dsim.seeds=N} for the long mode (the root pom passes it). */
    static final int SWEEP_SEEDS = Integer.getInteger("sim.seeds", 200);

    private SimRuns() {
    }

    /** Asserts a sweep seed passed, saying everything needed to replay it if not. */
    static void assertSweepSeed(SimulationResult result) {
        if (!result.passed()) {
            fail(describe(result));
        }
    }

    /**
     * Asserts a passing run did at least what {@code floors} asks of every seed ({@link RunFloors}):
     * faults fired, leader epochs, commits and judged appends.
     */
    static void assertExercised(SimulationResult result, RunFloors floors) {
        List<String> unmet = floors.unmet(result.stats());
        if (!unmet.isEmpty()) {
            fail(result.summaryLine() + " passed without exercising enough: " + String.join(", ", unmet)
                    + "\n  replay: " + result.options().replayCommand() + "\n  " + result.profile());
        }
    }

    /**
     * {@link #assertExercised} for a {@code SimSeedSweepTest} seed: {@link RunFloors#SWEEP}, or
     * {@link RunFloors#IDLE} for a seed listed as idle, which must still fall short of the first.
     */
    static void assertSweepExercised(SimulationResult result) {
        if (!RunFloors.IDLE_SWEEP_SEEDS.contains(result.options().seed())) {
            assertExercised(result, RunFloors.SWEEP);
            return;
        }
        assertExercised(result, RunFloors.IDLE);
        if (RunFloors.SWEEP.unmet(result.stats()).isEmpty()) {
            fail("seed " + result.options().seed() + " is listed as idle (RunFloors.IDLE_SWEEP_SEEDS) but meets the "
                    + "sweep's floors now: take it off the list\n  " + result.stats());
        }
    }

    /** What a series of runs covered, printed by the tests so the README can quote it (and its floors be set). */
    static final class Totals {
        private long runs;
        private long events;
        private long faultsMin = Long.MAX_VALUE;
        private long electionsMin = Long.MAX_VALUE;
        private long committedMin = Long.MAX_VALUE;
        private long ackedMin = Long.MAX_VALUE;
        private long faults;
        private long elections;
        private long committed;
        private long acked;

        synchronized void add(SimulationResult result) {
            RunStats stats = result.stats();
            runs++;
            events += result.events();
            faults += stats.faultsFired();
            elections += stats.elections();
            committed += stats.committedOffsets();
            acked += stats.appendsAcked();
            faultsMin = Math.min(faultsMin, stats.faultsFired());
            electionsMin = Math.min(electionsMin, stats.elections());
            committedMin = Math.min(committedMin, stats.committedOffsets());
            ackedMin = Math.min(ackedMin, stats.appendsAcked());
        }

        @Override
        public synchronized String toString() {
            return runs + " runs, " + events + " events; per run at least " + faultsMin + " faults fired, "
                    + electionsMin + " leader epochs, " + committedMin + " offsets committed, " + ackedMin
                    + " appends judged; in all " + faults + " faults, " + elections + " leader epochs, " + committed
                    + " offsets committed, " + acked + " appends judged";
        }
    }

    static SimulationOptions options(long seed, long events, EnumSet<FaultKind> faults, int voters, int observers) {
        return new SimulationOptions(seed, events, faults, faults.equals(EnumSet.allOf(FaultKind.class)), voters,
                observers, BrokenVariant.NONE, false);
    }

    /** A failure message that says everything needed to replay and debug the run. */
    static String describe(SimulationResult result) {
        return result.describe();
    }
}
