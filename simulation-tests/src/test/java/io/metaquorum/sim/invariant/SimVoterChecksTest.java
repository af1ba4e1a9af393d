package io.metaquorum.sim.invariant;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.sim.check.CheckFailure;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The checks of the voter set (KIP-853), fed hand-built states: each must pass the legal ones and fail the broken ones. */
class SimVoterChecksTest {
    private static RaftStatus status(int node, RoleName role, int epoch, int votedId) {
        return new RaftStatus(node, role, epoch, role == RoleName.LEADER ? node : -1, votedId, 10, 0, 10, 10, 10);
    }

    private static void assertFails(String invariant, Executable check) {
        CheckFailure failure = assertThrows(CheckFailure.class, check);
        assertEquals(invariant, failure.invariant(), failure.getMessage());
    }

    @Test
    void aLeaderHoldsAtMostOneUncommittedVoterChange() {
        VoterChangeCheck check = new VoterChangeCheck();
        assertDoesNotThrow(() -> check.observe(1, 3, 40, List.of()));
        assertDoesNotThrow(() -> check.observe(1, 3, 40, List.of(41L)), "one change pending");
        assertFails(VoterChangeCheck.NAME, () -> check.observe(1, 3, 40, List.of(41L, 45L)));
    }

    @Test
    void onlyAListedReplicaCampaignsOrTakesOffice() {
        VoterVoteCheck check = new VoterVoteCheck(3);
        assertDoesNotThrow(() -> check.observe(status(1, RoleName.CANDIDATE, 2, 1), true, false, id -> false, "set"));
        assertDoesNotThrow(() -> check.observe(status(1, RoleName.LEADER, 2, 1), true, false, id -> false, "set"));
        // A leader that removed itself leads on until the removal commits: judged when it took office.
        assertDoesNotThrow(() -> check.observe(status(1, RoleName.LEADER, 2, 1), false, false, id -> false, "set"));
        assertFails(VoterVoteCheck.NAME, () -> check.observe(status(2, RoleName.PROSPECTIVE, 2, -1), false, false,
                id -> false, "set"));
        assertFails(VoterVoteCheck.NAME, () -> check.observe(status(2, RoleName.CANDIDATE, 3, 2), false, false,
                id -> true, "set"));
        assertFails(VoterVoteCheck.NAME, () -> check.observe(status(3, RoleName.LEADER, 4, 3), false, false,
                id -> true, "set"));
        // Removed by a change not known committed on it: it may campaign and lead to finish the change.
        assertDoesNotThrow(() -> check.observe(status(2, RoleName.CANDIDATE, 5, 2), false, true, id -> false, "set"));
        assertDoesNotThrow(() -> check.observe(status(2, RoleName.LEADER, 5, 2), false, true, id -> false, "set"));
    }

    @Test
    void aVoteIsGrantedOnlyByAVoterOfItsOwnSetOrOfTheCandidates() {
        VoterVoteCheck check = new VoterVoteCheck(3);
        assertDoesNotThrow(() -> check.observe(status(2, RoleName.UNATTACHED, 2, 1), true, false, id -> false, "set"));
        // Its own log does not list it yet, the candidate's newer voter set does (KIP-853).
        assertDoesNotThrow(() -> check.observe(status(3, RoleName.UNATTACHED, 2, 1), false, false, id -> id == 1, "set"));
        // Judged once, when cast: a vote read back after a removal was legal when cast.
        assertDoesNotThrow(() -> check.observe(status(2, RoleName.FOLLOWER, 2, 1), false, false, id -> false, "set"));
        assertFails(VoterVoteCheck.NAME, () -> check.observe(status(2, RoleName.UNATTACHED, 3, 1), false, false,
                id -> false, "set"));
    }

    /** A leader's voter set changed during the event: a majority of either set it may have counted suffices. */
    @Test
    void aHighWatermarkMovedAcrossAVoterChangeIsJudgedByEitherSet() {
        DurableMajorityCheck check = new DurableMajorityCheck(3);
        RaftStatus leader = new RaftStatus(2, RoleName.LEADER, 5, 2, 2, 20, 0, 25, 25, 20);
        assertEquals(true, check.wouldCheck(leader, 1));
        assertDoesNotThrow(() -> check.observe(leader, 5, List.of(new DurableMajorityCheck.Quorum((o, e) -> 1, 2),
                new DurableMajorityCheck.Quorum((o, e) -> 2, 2))));
        RaftStatus further = new RaftStatus(2, RoleName.LEADER, 5, 2, 2, 22, 0, 25, 25, 22);
        assertEquals(true, check.wouldCheck(further, 1));
        assertFails("high-watermark-on-majority", () -> check.observe(further, 5, List.of(
                new DurableMajorityCheck.Quorum((o, e) -> 1, 2), new DurableMajorityCheck.Quorum((o, e) -> 1, 2))));
    }
}
