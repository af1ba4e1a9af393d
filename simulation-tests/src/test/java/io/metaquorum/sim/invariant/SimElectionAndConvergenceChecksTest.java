package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@link ElectionStateCheck} and {@link ConvergenceCheck} on hand-built states: quiet on good ones, firing on bad ones. */
class SimElectionAndConvergenceChecksTest {
    private static RaftStatus voter(int node, RoleName role, int epoch, int votedId) {
        return new RaftStatus(node, role, epoch, -1, votedId, 0, 0, 0, 0, 0);
    }

    private static void assertFails(String invariant, Executable check) {
        CheckFailure failure = assertThrows(CheckFailure.class, check);
        assertEquals(invariant, failure.invariant(), failure.getMessage());
    }

    @Test
    void aVoterActsOnlyOnTheElectionStateItsDiskHolds() {
        ElectionStateCheck check = new ElectionStateCheck();
        assertDoesNotThrow(() -> check.observe(voter(1, RoleName.UNATTACHED, 0, -1), null), "a fresh voter");
        assertDoesNotThrow(() -> check.observe(voter(1, RoleName.CANDIDATE, 3, 1), new ElectionState(3, -1, 1)));
        assertDoesNotThrow(() -> check.observe(voter(2, RoleName.FOLLOWER, 3, -1), new ElectionState(3, 1, -1)),
                "no vote cast: only the epoch must be durable");
        assertFails("election-state-durable", () -> check.observe(voter(1, RoleName.CANDIDATE, 3, 1), null));
        assertFails("election-state-durable",
                () -> check.observe(voter(1, RoleName.UNATTACHED, 4, -1), new ElectionState(3, -1, 1)));
        assertFails("election-state-durable",
                () -> check.observe(voter(2, RoleName.UNATTACHED, 3, 1), new ElectionState(3, -1, -1)));
        assertFails("election-state-durable",
                () -> check.observe(voter(2, RoleName.UNATTACHED, 3, 1), new ElectionState(3, -1, 3)));
    }

    private static RaftStatus node(int id, RoleName role, int epoch, int leaderId, long logEnd, long hw, long applied) {
        return new RaftStatus(id, role, epoch, leaderId, -1, hw, 0, logEnd, logEnd, applied);
    }

    private static List<RaftStatus> converged() {
        return List.of(node(1, RoleName.LEADER, 4, 1, 50, 50, 50), node(2, RoleName.FOLLOWER, 4, 1, 50, 50, 50),
                node(4, RoleName.FOLLOWER, 4, 1, 50, 50, 50));
    }

    @Test
    void aConvergedClusterIsSeenAsConverged() {
        assertNull(ConvergenceCheck.whyNotConverged(converged(), Set.of(1, 2, 4), 1_000, 900));
        assertNull(ConvergenceCheck.whyNotConverged(converged(), Set.of(1, 2), 1_000, 1_000),
                "a node not expected up may run too");
    }

    @Test
    void everyWayOfNotHavingConvergedIsNamed() {
        assertEquals("node 3 is not running", ConvergenceCheck.whyNotConverged(converged(), Set.of(1, 2, 3), 1_000, 0));
        assertEquals("no leader", ConvergenceCheck.whyNotConverged(
                List.of(node(1, RoleName.CANDIDATE, 5, -1, 50, 50, 50), node(2, RoleName.FOLLOWER, 4, 1, 50, 50, 50)),
                Set.of(1, 2), 1_000, 0));
        assertEquals("two running leaders: 1 (epoch 4) and 2 (epoch 5)", ConvergenceCheck.whyNotConverged(
                List.of(node(1, RoleName.LEADER, 4, 1, 50, 50, 50), node(2, RoleName.LEADER, 5, 2, 50, 50, 50)),
                Set.of(1, 2), 1_000, 0));
        assertEquals("no append accepted since healing has been acknowledged yet",
                ConvergenceCheck.whyNotConverged(converged(), Set.of(1, 2, 4), 899, 900));
        String stale = ConvergenceCheck.whyNotConverged(List.of(node(1, RoleName.LEADER, 4, 1, 50, 50, 50),
                node(2, RoleName.FOLLOWER, 3, 3, 50, 50, 50)), Set.of(1, 2), 1_000, 0);
        assertEquals("node 2 is in epoch 3 with leader 3; the leader is 1 in epoch 4", stale);
        for (RaftStatus behind : List.of(node(2, RoleName.FOLLOWER, 4, 1, 49, 49, 49),
                node(2, RoleName.FOLLOWER, 4, 1, 50, 49, 49), node(2, RoleName.FOLLOWER, 4, 1, 50, 50, 48))) {
            String why = ConvergenceCheck.whyNotConverged(List.of(node(1, RoleName.LEADER, 4, 1, 50, 50, 50), behind),
                    Set.of(1, 2), 1_000, 0);
            assertEquals("node 2 has log end " + behind.logEndOffset() + ", high watermark " + behind.highWatermark()
                    + ", applied " + behind.appliedOffset() + "; the leader has 50, 50", why);
        }
    }
}
