package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.fail;

import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;

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

    static SimulationOptions options(long seed, long events, EnumSet<FaultKind> faults, int voters, int observers) {
        return new SimulationOptions(seed, events, faults, faults.equals(EnumSet.allOf(FaultKind.class)), voters,
                observers, BrokenVariant.NONE, false);
    }

    /** A failure message that says everything needed to replay and debug the run. */
    static String describe(SimulationResult result) {
        if (result.passed()) {
            return result.summaryLine() + " passed";
        }
        return result.summaryLine() + " FAILED at event " + result.failureEvent() + " (" + result.phase() + " phase): "
                + result.failure().getMessage() + "\n  replay: " + result.options().replayCommand() + "\n  "
                + result.profile();
    }
}
