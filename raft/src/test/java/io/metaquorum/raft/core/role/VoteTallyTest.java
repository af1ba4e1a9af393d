package io.metaquorum.raft.core.role;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class VoteTallyTest {
    private final VoteTally tally = new VoteTally(List.of(1, 2, 3), 1);

    @Test
    void awaitsOnlyTheRequestItSentLast() {
        tally.markSent(2, 7);
        assertTrue(tally.awaits(2, 7));
        assertFalse(tally.awaits(2, 6), "an earlier round's request to the same voter is stale");
        assertFalse(tally.awaits(3, 7));
        tally.markAnswered(2);
        assertFalse(tally.awaits(2, 7), "a second answer to the same request is not counted");
    }

    @Test
    void aForgottenRejectionIsAskedAgainAndCanBecomeAGrant() {
        tally.markSent(3, 1);
        tally.markAnswered(3);
        tally.recordRejection(3);
        assertFalse(tally.needsRequest(3, 0));
        assertTrue(tally.forgetRejection(3));
        assertFalse(tally.forgetRejection(3), "only a recorded rejection is forgotten");
        assertTrue(tally.needsRequest(3, 0));
        tally.recordGrant(3);
        assertTrue(tally.isWon());
        assertEquals(List.of(1, 3), tally.grantingVoters());
    }

    @Test
    void lostOnceAMajorityRejected() {
        tally.recordRejection(2);
        assertFalse(tally.isLost());
        tally.recordRejection(3);
        assertTrue(tally.isLost());
    }

    @Test
    void aReplicaOutsideTheSetDoesNotCountItsOwnVote() {
        VoteTally outside = new VoteTally(List.of(2), 1);
        assertFalse(outside.isWon(), "a leader that removed itself needs the new set's majority");
        outside.recordGrant(1);
        assertFalse(outside.isWon());
        outside.recordGrant(2);
        assertTrue(outside.isWon());
        assertEquals(List.of(2), outside.grantingVoters());
    }
}
