package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Fresh seeds that once failed, each kept under the name of what it found, with the options
 * that found it. Each must pass and must have exercised the system. A later change to the
 * simulation can move a seed's trace away from the history it found, so each bug also has a
 * unit test of its own mechanism; the seed stays as the end-to-end witness.
 */
class SimRegressionSeedTest {
    private static SimulationResult runPassing(long seed, String replayCommand) {
        SimulationOptions options = SimulationOptions.defaults(seed);
        assertEquals(replayCommand, options.replayCommand(), "the options that found the failure");
        SimulationResult result = Simulation.run(options);
        SimRuns.assertSweepSeed(result);
        SimRuns.assertExercised(result, RunFloors.SWEEP);
        return result;
    }

    /**
     * Guards against a truncation that does not survive a crash ({@code monotonic-high-watermark}):
     * observer 4 truncated its log to 1459 on the leader's word, appended to 1465 unsynced and
     * crashed during the sync; the simulated log had queued the truncation with the appends, so
     * the disk kept its old tail and the node came back with a log reaching 1468, below a high
     * watermark it had already applied. A truncation is durable when {@code truncateTo} returns
     * (the {@code RaftLog} contract); {@code SimDiskTest} checks the mechanism itself.
     */
    @Test
    void seed9514970TruncatedTailDoesNotReturnAfterACrash() {
        runPassing(9514970, "bin/mq-simulate --seed 9514970 --events 50000 --faults all --nodes 3 --observers 2");
    }
}
