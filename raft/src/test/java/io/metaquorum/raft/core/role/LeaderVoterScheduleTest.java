package io.metaquorum.raft.core.role;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A leader keeps a BeginQuorumEpoch schedule for the voters of its current set only: an
 * answer or failure of a request sent to a voter since removed must not put it back, or its
 * past deadline makes every poll due at once (a busy loop the simulator found).
 */
class LeaderVoterScheduleTest {
    private static VoterSet voters(int... ids) {
        List<VoterSet.Voter> list = new ArrayList<>();
        for (int id : ids) {
            list.add(new VoterSet.Voter(new ReplicaKey(id, TopicIds.uuid(id, id)), List.of()));
        }
        return VoterSet.of(list);
    }

    @Test
    void aRemovedVotersLateAnswerSchedulesNothing() {
        Leader leader = new Leader(4, 1, 10, voters(1, 2, 3), 5_000, 1_000);
        leader.markBeginQuorumEpochAcked(3, 100);
        leader.scheduleBeginQuorumEpoch(2, 200, 100);
        leader.updateVoters(voters(1, 3));
        leader.scheduleBeginQuorumEpoch(2, 300, 250);
        leader.markBeginQuorumEpochAcked(2, 260);
        assertEquals(false, leader.isBeginQuorumEpochDue(2, 10_000), "no longer a voter");
        assertEquals(1_100, leader.nextBeginQuorumEpochMs(), "only voter 3's re-send remains");
    }
}
