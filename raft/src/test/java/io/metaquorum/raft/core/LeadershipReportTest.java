package io.metaquorum.raft.core;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.AppendResult;
import static io.metaquorum.raft.core.OneReplica.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.core.handler.RaftRpcs;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the state machine hears of leadership: each change once, "you lead epoch E from
 * offset O" only once it has applied everything before O, and "you no longer lead" exactly
 * once for each leadership it was told of.
 */
class LeadershipReportTest {

    /** Replica 1 leads epoch 1 over a log of three epoch-0 records; its leader-change record is at offset 3. */
    private static OneReplica leaderOfEpochOne() {
        OneReplica replica = new OneReplica(new InMemoryQuorumStateStore(),
                OneReplica.logWithEpochs(0, 0, 0));
        replica.electAsLeader();
        assertEquals(List.of("leader -1 epoch 1", "leader 1 epoch 1"), replica.listener.takeLeadership());
        return replica;
    }

    /** Replica 2 fetches everything, committing the leader-change record. */
    private static void commitLeaderChange(OneReplica leader) {
        leader.request(2, fetch(2, 1, 4, 1, 0));
    }

    @Test
    void becomingLeaderReportsTheEpochAndItsStartOffsetOnceTheStateMachineCaughtUp() {
        OneReplica leader = leaderOfEpochOne();
        // Records 0-2 of epoch 0 are not committed yet: a state machine deciding now would miss them.
        leader.advance(10);
        assertEquals(List.of(), leader.listener.takeLeadership());
        commitLeaderChange(leader);
        assertEquals(List.of("lead 1 from 3"), leader.listener.takeLeadership());
        assertEquals(List.of("r0", "r1", "r2"), leader.listener.committed);
        AppendResult first = leader.core.append(1, List.of(ByteString.copyFromUtf8("mine")), leader.nowMs);
        assertEquals(4, first.lastOffset());
        leader.advance(10);
        leader.request(2, fetch(2, 1, 5, 1, 0));
        leader.request(3, fetch(3, 1, 5, 1, 0));
        assertEquals(List.of(), leader.listener.takeLeadership());
    }

    @Test
    void aSingleVoterIsToldItLeadsOnce() {
        CoreCluster.RecordingListener listener = new CoreCluster.RecordingListener();
        SoloLeader solo = new SoloLeader(RaftLimits.DEFAULTS, listener);
        for (int i = 0; i < 5; i++) {
            solo.step();
        }
        // Candidate and leader within one poll: the candidacy is never reported.
        assertEquals(List.of("leader 1 epoch 1", "lead 1 from 0"), listener.takeLeadership());
    }

    @Test
    void aResignationReportsNoLongerLeadingExactlyOnce() {
        OneReplica leader = leaderOfEpochOne();
        commitLeaderChange(leader);
        leader.listener.takeLeadership();
        leader.core.resign(leader.nowMs);
        assertEquals(List.of("resign 1", "leader -1 epoch 1"), leader.listener.takeLeadership());
        leader.step();
        leader.advance(100);
        assertEquals(List.of(), leader.listener.takeLeadership());
        // The successor announces itself: a plain leader change, no second resignation.
        leader.request(2, RaftRpcs.beginQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 2));
        assertEquals(List.of("leader 2 epoch 2"), leader.listener.takeLeadership());
    }

    @Test
    void losingTheEpochToAHigherOneReportsNoLongerLeadingOnce() {
        OneReplica leader = leaderOfEpochOne();
        commitLeaderChange(leader);
        leader.listener.takeLeadership();
        leader.request(3, RaftRpcs.beginQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 3, 4));
        assertEquals(List.of("resign 1", "leader 3 epoch 4"), leader.listener.takeLeadership());
        assertEquals(AppendResult.Status.NOT_LEADER,
                leader.core.append(1, List.of(ByteString.copyFromUtf8("late")), leader.nowMs).status());
        leader.advance(100);
        assertEquals(List.of(), leader.listener.takeLeadership());
    }

    @Test
    void failingCheckQuorumReportsNoLongerLeadingOnce() {
        OneReplica leader = leaderOfEpochOne();
        commitLeaderChange(leader);
        leader.listener.takeLeadership();
        // Nobody fetches any more: after 1.5 x the fetch timeout the leader resigns, then campaigns on.
        List<String> reports = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            leader.advance(100);
            reports.addAll(leader.listener.takeLeadership());
        }
        assertEquals(1, Collections.frequency(reports, "resign 1"), reports.toString());
        assertEquals("leader -1 epoch 1", reports.get(reports.indexOf("resign 1") + 1));
        assertTrue(reports.stream().noneMatch(r -> r.startsWith("lead ")), reports.toString());
    }

    @Test
    void aLeadershipLostBeforeItsLeaderChangeCommitsIsNeverReportedAsLed() {
        OneReplica leader = leaderOfEpochOne();
        leader.request(2, RaftRpcs.beginQuorumEpochRequest(CoreCluster.CLUSTER_ID, 1, 2, 2));
        assertEquals(List.of("leader 2 epoch 2"), leader.listener.takeLeadership());
    }

    @Test
    void aFollowerThatPreVotesStillNamesItsLeader() {
        OneReplica follower = new OneReplica(OneReplica.storeAt(new ElectionState(3, 2, -1)),
                OneReplica.logWithEpochs(3));
        assertEquals(List.of("leader 2 epoch 3"), follower.listener.takeLeadership());
        // No fetch answer for longer than the fetch timeout: it pre-votes.
        follower.advance(2_500);
        assertEquals(RoleName.PROSPECTIVE, follower.core.status().role());
        assertEquals(List.of(), follower.listener.takeLeadership());
    }

    @Test
    void aReplicaThatLedBeforeARestartStartsKnowingNoLeader() {
        OneReplica restarted = new OneReplica(OneReplica.storeAt(new ElectionState(3, 1, 1)),
                OneReplica.logWithEpochs(3, 3));
        assertEquals(RoleName.RESIGNED, restarted.core.status().role());
        assertEquals(List.of("leader -1 epoch 3"), restarted.listener.takeLeadership());
    }

    @Test
    void everyReplicaHearsEachLeaderOnceAndOnlyTheLeaderHearsItLeads() {
        CoreCluster cluster = new CoreCluster(3, 1, 11);
        Node first = cluster.awaitLeader();
        cluster.appendThroughLeader("a");
        cluster.runUntil(() -> cluster.nodes.values().stream().allMatch(n -> n.listener.committed.size() == 1), 5_000);
        int epoch = first.status().epoch();
        for (Node node : cluster.nodes.values()) {
            List<String> reports = node.listener.leadership;
            assertEquals(1, Collections.frequency(reports, "leader " + first.id + " epoch " + epoch), node.id + ": " + reports);
            boolean led = reports.stream().anyMatch(r -> r.startsWith("lead "));
            assertEquals(node == first, led, node.id + ": " + reports);
        }
        first.core.resign(cluster.nowMs);
        Node second = cluster.awaitLeader();
        cluster.runFor(1_000);
        assertEquals(1, Collections.frequency(first.listener.leadership, "resign " + epoch), first.listener.leadership.toString());
        int secondEpoch = second.status().epoch();
        assertEquals(1, second.listener.leadership.stream().filter(r -> r.startsWith("lead " + secondEpoch + " from ")).count(),
                second.listener.leadership.toString());
    }
}
