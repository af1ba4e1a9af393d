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

    /**
     * Guards against a follower refusing the leader's batch that holds its log end
     * ({@code core-invariant}): observer 5 truncated its log to 1852 on leader 1's word, the
     * truncation cutting a batch of epoch 38 after 1851; the next leader, 3, holds that batch
     * whole from 1851 and answered the fetch at 1852 with it. Truncations cut batches, so
     * replicas' batch boundaries differ; the follower appends the records from its end on
     * ({@code FetchInteractionTest} checks the mechanism itself).
     */
    @Test
    void seed1990FollowerAppendsTheRestOfABatchItsTruncationCut() {
        runPassing(1990, "bin/mq-simulate --seed 1990 --events 50000 --faults all --nodes 3 --observers 2");
    }

    /**
     * Guards against an observer that asks no one for the leader ({@code liveness}): voter 2 was
     * wiped and came back with a new directory, fetched the log up to 1668, where the voter set
     * was its own node id alone (under its old directory), and lost its next fetch; asking the
     * voters of that set other than itself for the leader, it asked no one, and never fetched
     * again. It now falls back to the configured voters
     * ({@code VoterChangeInteractionTest.anObserverWhoseVoterSetNamesOnlyItselfFindsTheLeaderThroughTheConfiguredVoters}).
     */
    @Test
    void seed7300005AWipedVoterWithOnlyItsOldSelfInItsVoterSetStillFindsTheLeader() {
        runPassing(7300005, "bin/mq-simulate --seed 7300005 --events 50000 --faults all --nodes 3 --observers 2");
    }
}
