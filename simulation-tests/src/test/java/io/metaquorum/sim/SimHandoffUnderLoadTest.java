package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.workload.WorkloadProfile;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A graceful handoff (SIGTERM of the leader) under write load: the resigning leader
 * lets its first successor catch up to its log end before it names it, so the successor's
 * campaign (without a pre-vote) is never refused for its log, and it wins in one round.
 */
class SimHandoffUnderLoadTest {
    /** An append of 1-3 records every ~2 ms: the followers' logs trail the leader's all the time. */
    private static final WorkloadProfile WRITE_LOAD = new WorkloadProfile(2, 3, 0, 1_000);
    private static final long HANDOFF_BOUND_MS = 500;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
            27, 28, 29, 30})
    void theFirstSuccessorWinsInOneRound(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 0);
        scenario.setWorkload(WRITE_LOAD);
        scenario.awaitLeader(4_000, Set.of());
        scenario.awaitCommitted(500, 10_000);
        SimNode leader = scenario.awaitLeader(4_000, Set.of());
        int epoch = leader.status().epoch();
        leader.beginShutdown();
        SimNode successor = scenario.awaitLeader(HANDOFF_BOUND_MS, Set.of(leader.nodeId()));
        assertEquals(epoch + 1, successor.status().epoch(), "the successor won the first election after the handoff");
    }
}
