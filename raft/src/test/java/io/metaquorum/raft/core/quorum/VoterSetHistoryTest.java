package io.metaquorum.raft.core.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VoterSetHistoryTest {
    private static final VoterSet BOOTSTRAP = VoterSet.ofIds(List.of(1, 2, 3));
    private static final VoterSet FOUR = VoterSet.ofIds(List.of(1, 2, 3, 4));
    private static final VoterSet FIVE = VoterSet.ofIds(List.of(1, 2, 3, 4, 5));

    @Test
    void theActiveSetIsTheLatestRecordCommittedOrNot() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        assertEquals(BOOTSTRAP, history.active());
        assertFalse(history.logNamesVoters());
        history.addAt(5, FOUR);
        history.addAt(9, FIVE);
        assertEquals(FIVE, history.active());
        assertTrue(history.logNamesVoters());
    }

    @Test
    void beforeTheLastChangeIsTheSetThatRecordReplaces() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        assertEquals(BOOTSTRAP, history.beforeLastChange(), "no record: the active set");
        history.addAt(5, FOUR);
        assertEquals(BOOTSTRAP, history.beforeLastChange());
        history.addAt(9, FIVE);
        assertEquals(FOUR, history.beforeLastChange());
        history.startAt(7, Optional.of(FOUR), false);
        assertEquals(FOUR, history.beforeLastChange(), "the set in force at the log start");
    }

    @Test
    void aTruncationPastARecordRevertsToTheOneBefore() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        history.addAt(5, FOUR);
        history.addAt(9, FIVE);
        history.truncateTo(10);
        assertEquals(FIVE, history.active(), "the record at 9 stays");
        history.truncateTo(9);
        assertEquals(FOUR, history.active());
        history.truncateTo(0);
        assertEquals(BOOTSTRAP, history.active());
    }

    @Test
    void aSnapshotCarriesTheSetInForceAtItsOffset() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        history.addAt(5, FOUR);
        history.addAt(9, FIVE);
        history.startAt(7, Optional.of(FOUR), false);
        assertEquals(FIVE, history.active());
        history.truncateTo(8);
        assertEquals(FOUR, history.active(), "the snapshot's set, not the bootstrap one");
    }

    @Test
    void aSnapshotWithoutVotersKeepsTheSetInForceBelowIt() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        history.addAt(5, FOUR);
        history.startAt(7, Optional.empty(), true);
        assertEquals(FOUR, history.active());
        assertTrue(history.logNamesVoters());
    }

    @Test
    void aVoterRemovedByAChangeNotKnownCommittedMayCampaignUntilItCommits() {
        VoterSetHistory history = new VoterSetHistory(BOOTSTRAP);
        ReplicaKey removed = new ReplicaKey(3, TopicIds.ZERO);
        assertTrue(history.mayCampaign(removed, 0));
        history.addAt(10, VoterSet.ofIds(List.of(1, 2)));
        assertTrue(history.mayCampaign(removed, 10), "the removal at 10 is not committed below 11");
        assertFalse(history.mayCampaign(removed, 11), "committed: an observer now");
        assertFalse(history.mayCampaign(new ReplicaKey(4, TopicIds.ZERO), 0), "never a voter");
        assertTrue(history.mayCampaign(new ReplicaKey(1, TopicIds.ZERO), 11));
    }
}
