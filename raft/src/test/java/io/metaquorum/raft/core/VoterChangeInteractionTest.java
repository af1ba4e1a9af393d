package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * AddVoter and RemoveVoter (KIP-853) through real cores: the leader appends a VotersRecord
 * that counts at once and answers when it commits; a new voter counts toward the high
 * watermark, a removed one no longer does and never campaigns; a leader that removes itself
 * resigns once the change commits; and each refusal of KIP-853 with its code.
 */
class VoterChangeInteractionTest {
    private static final long WAIT_MS = 30_000;
    private static final Uuid NEW_DIRECTORY = TopicIds.uuid(0xBEEF, 3);

    private static AddVoterRequest add(int id, Uuid directoryId, int timeoutMs) {
        return AddVoterRequest.newBuilder().setClusterId(CoreCluster.CLUSTER_ID).setVoterId(id)
                .setVoterDirectoryId(directoryId).setTimeoutMs(timeoutMs)
                .addListeners(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER").setHost("127.0.0.1")
                        .setPort(19090 + id)).build();
    }

    private static RemoveVoterRequest remove(int id, Uuid directoryId) {
        return RemoveVoterRequest.newBuilder().setClusterId(CoreCluster.CLUSTER_ID).setVoterId(id)
                .setVoterDirectoryId(directoryId).build();
    }

    private static AddVoterResponse addVoter(CoreCluster cluster, int to, int id, Uuid directoryId) {
        return (AddVoterResponse) cluster.clientRequest(to, add(id, directoryId, 0), WAIT_MS);
    }

    private static RemoveVoterResponse removeVoter(CoreCluster cluster, int to, int id, Uuid directoryId) {
        return (RemoveVoterResponse) cluster.clientRequest(to, remove(id, directoryId), WAIT_MS);
    }

    /** A cluster of 3 voters and 2 observers with directory ids, a leader and a committed write, everyone caught up. */
    private static CoreCluster settled(long seed) {
        CoreCluster cluster = new CoreCluster(3, 2, seed, true);
        long offset = cluster.appendThroughLeader("before");
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().status().highWatermark() > offset,
                WAIT_MS);
        awaitCaughtUp(cluster, List.of(1, 2, 3, 4, 5));
        return cluster;
    }

    /** Runs until every node of {@code ids} holds the leader's whole log and knows it committed. */
    private static void awaitCaughtUp(CoreCluster cluster, List<Integer> ids) {
        cluster.runUntil(() -> {
            Node leader = cluster.leader();
            return leader != null && ids.stream().map(cluster::node).allMatch(n -> n.status().logEndOffset()
                    == leader.status().logEndOffset() && n.status().highWatermark() == leader.status().highWatermark());
        }, WAIT_MS);
    }

    private static boolean committedEverywhere(CoreCluster cluster, long offset, List<Integer> ids) {
        return ids.stream().allMatch(id -> cluster.node(id).status().highWatermark() > offset);
    }

    @Test
    void anAddedVoterCountsTowardTheHighWatermark() {
        CoreCluster cluster = settled(1);
        Node leader = cluster.leader();

        AddVoterResponse added = addVoter(cluster, leader.id, 4, CoreCluster.directoryId(4));

        assertEquals(ErrorCode.NONE, added.getErrorCode(), added.getErrorMessage());
        awaitCaughtUp(cluster, List.of(1, 2, 3, 4, 5));
        for (Node node : cluster.nodes.values()) {
            assertEquals(List.of(1, 2, 3, 4), node.core.voters().ids(), "node " + node.id);
        }
        assertTrue(cluster.node(4).core.voters().isVoter(new ReplicaKey(4, CoreCluster.directoryId(4))));
        int follower = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();
        cluster.crash(follower);
        long withFour = cluster.appendThroughLeader("leader, one follower and node 4");
        cluster.runUntil(() -> leader.status().highWatermark() > withFour, WAIT_MS);
        cluster.crash(4);
        long withoutFour = cluster.appendThroughLeader("two of four");
        cluster.runFor(5_000);
        assertTrue(leader.status().highWatermark() <= withoutFour, "2 of 4 voters are no majority");
    }

    @Test
    void aRemovedVoterNoLongerCountsAndNeverCampaigns() {
        CoreCluster cluster = settled(2);
        Node leader = cluster.leader();
        int removed = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();

        RemoveVoterResponse answer = removeVoter(cluster, leader.id, removed, CoreCluster.directoryId(removed));

        assertEquals(ErrorCode.NONE, answer.getErrorCode(), answer.getErrorMessage());
        awaitCaughtUp(cluster, List.of(1, 2, 3, 4, 5));
        assertFalse(cluster.node(removed).core.voters().hasId(removed));
        assertEquals(2, leader.core.voters().size());
        int other = cluster.voterIds.stream().filter(id -> id != leader.id && id != removed).findFirst().orElseThrow();
        cluster.crash(removed);
        long offset = cluster.appendThroughLeader("two of two");
        cluster.runUntil(() -> leader.status().highWatermark() > offset, WAIT_MS);

        cluster.restart(removed);
        cluster.crash(leader.id);
        cluster.runFor(10_000);
        RoleName role = cluster.node(removed).status().role();
        assertTrue(role == RoleName.FOLLOWER || role == RoleName.UNATTACHED, "an observer never campaigns: " + role);
        assertNotEquals(RoleName.LEADER, cluster.node(other).status().role(), "one voter of two is no majority");
    }

    @Test
    void aStateMachineThatTakesRaftsControlRecordsAppendsTheVotersRecordBehindItsOwnAppends() {
        CoreCluster cluster = settled(6);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();
        leader.listener.takesControlRecords = true;

        long correlation = cluster.sendClientRequest(leader.id, add(4, CoreCluster.directoryId(4), 0));
        cluster.runFor(1_000);

        assertEquals(1, leader.listener.controlRecordsTaken.size());
        assertEquals(List.of(1, 2, 3), leader.core.voters().ids(), "not in the log until the state machine appends it");
        RemoveVoterResponse second = removeVoter(cluster, leader.id, 4, CoreCluster.directoryId(4));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, second.getErrorCode(), "one change at a time");
        AppendResult own = leader.core.append(epoch, List.of(ByteString.copyFromUtf8("the state machine's")),
                cluster.nowMs);
        AppendResult placed = leader.core.appendControl(epoch, leader.listener.controlRecordsTaken.get(0),
                cluster.nowMs);
        assertEquals(own.lastOffset() + 1, placed.lastOffset(), "right behind the append it made before");
        assertEquals(List.of(1, 2, 3, 4), leader.core.voters().ids());

        AddVoterResponse answer = (AddVoterResponse) cluster.awaitClientAnswer(correlation, WAIT_MS);
        assertEquals(ErrorCode.NONE, answer.getErrorCode(), answer.getErrorMessage());
        assertEquals(epoch, leader.status().epoch(), "no election");
        assertTrue(leader.status().isLeader());
        assertEquals(AppendResult.Status.NOT_LEADER, leader.core.appendControl(epoch,
                leader.listener.controlRecordsTaken.get(0), cluster.nowMs).status(), "placed once");
    }

    @Test
    void controlRecordsPlacedAfterTheirEpochEndedAreRefusedAndChangeNothing() {
        CoreCluster cluster = settled(7);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();
        leader.listener.takesControlRecords = true;
        long correlation = cluster.sendClientRequest(leader.id, add(4, CoreCluster.directoryId(4), 0));
        cluster.runFor(100);

        leader.core.resign(cluster.nowMs);
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().status().epoch() > epoch, WAIT_MS);

        AddVoterResponse answer = (AddVoterResponse) cluster.awaitClientAnswer(correlation, WAIT_MS);
        assertEquals(ErrorCode.NOT_LEADER_OR_FOLLOWER, answer.getErrorCode());
        assertEquals(AppendResult.Status.NOT_LEADER, leader.core.appendControl(epoch,
                leader.listener.controlRecordsTaken.get(0), cluster.nowMs).status());
        for (Node node : cluster.nodes.values()) {
            assertEquals(List.of(1, 2, 3), node.core.voters().ids(), "node " + node.id);
        }
    }

    @Test
    void aLeaderThatRemovesItselfResignsOnceTheChangeCommits() {
        CoreCluster cluster = settled(3);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();

        RemoveVoterResponse answer = removeVoter(cluster, leader.id, leader.id, CoreCluster.directoryId(leader.id));

        assertEquals(ErrorCode.NONE, answer.getErrorCode(), answer.getErrorMessage());
        long answeredMs = cluster.nowMs;
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().id != leader.id, WAIT_MS);
        // The voters heed the resignation of a leader no longer in their set: one of them campaigns at
        // once, not after an election timeout (1 s here) without fetches.
        assertTrue(cluster.nowMs - answeredMs < RaftTimeouts.DEFAULTS.electionTimeoutMs(),
                "successor elected " + (cluster.nowMs - answeredMs) + " ms after the change");
        Node successor = cluster.leader();
        assertTrue(successor.status().epoch() > epoch);
        assertFalse(successor.core.voters().hasId(leader.id));
        long offset = cluster.appendThroughLeader("after the leader left");
        cluster.runUntil(() -> committedEverywhere(cluster, offset, List.of(1, 2, 3)), WAIT_MS);
        assertEquals(RoleName.FOLLOWER, leader.status().role(), "the old leader follows as an observer");
    }

    /**
     * Two voters; the leader removes itself and stops before the other fetched the
     * VotersRecord. The other (whose log still lists both) cannot win against the longer log;
     * the restarted leader, outside its own latest set, campaigns under that set, wins the
     * other's vote, commits the change and resigns.
     */
    @Test
    void aLeaderThatRemovedItselfFromTwoVotersAndStoppedFinishesTheChangeWhenItRestarts() {
        CoreCluster cluster = settled(8);
        Node leader = cluster.leader();
        int dropped = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();
        assertEquals(ErrorCode.NONE, removeVoter(cluster, leader.id, dropped, CoreCluster.directoryId(dropped))
                .getErrorCode());
        int other = cluster.voterIds.stream().filter(id -> id != leader.id && id != dropped).findFirst().orElseThrow();
        awaitCaughtUp(cluster, List.of(leader.id, other));

        cluster.isolate(other);
        cluster.sendClientRequest(leader.id, remove(leader.id, CoreCluster.directoryId(leader.id)));
        cluster.runFor(200);
        assertEquals(List.of(other), leader.core.voters().ids(), "appended on the leader alone");
        assertEquals(2, cluster.node(other).core.voters().size(), "never fetched by the other voter");
        cluster.crash(leader.id);
        cluster.heal();
        cluster.runFor(3_000);
        assertTrue(cluster.leader() == null, "the other voter alone cannot win: its set has two voters");

        cluster.restart(leader.id);
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().id == other
                && cluster.node(other).core.voters().ids().equals(List.of(other)), WAIT_MS);
        long offset = cluster.appendThroughLeader("one voter");
        cluster.runUntil(() -> committedEverywhere(cluster, offset, List.of(leader.id, other)), WAIT_MS);
        assertFalse(cluster.node(leader.id).core.voters().hasId(leader.id));
    }

    /**
     * A wiped voter that fetched part of the log may hold a voter set from when its own node id
     * (under its old directory) was the only voter: as an observer it must still find the
     * leader, through the configured voters, or it never fetches again (simulation seed
     * 7300005: node 2 stopped at offset 1668 for good).
     */
    @Test
    void anObserverWhoseVoterSetNamesOnlyItselfFindsTheLeaderThroughTheConfiguredVoters() {
        CoreCluster cluster = settled(9);
        Node observer = cluster.node(4);
        cluster.crash(4);
        observer.log = new InMemoryRaftLog();
        observer.store = new InMemoryQuorumStateStore();
        observer.directoryId = NEW_DIRECTORY;
        observer.initialVoters = Optional.of(VoterSet.of(List.of(
                new VoterSet.Voter(new ReplicaKey(4, CoreCluster.directoryId(4)), List.of()))));
        cluster.restart(4);
        assertEquals(List.of(4), observer.core.voters().ids(), "its own id, under another directory");

        awaitCaughtUp(cluster, List.of(1, 2, 3, 4, 5));
        assertEquals(List.of(1, 2, 3), observer.core.voters().ids());
    }

    @Test
    void aWipedVoterIsAnObserverUntilItIsRemovedAndAddedBackWithItsNewDirectory() {
        CoreCluster cluster = settled(4);
        Node leader = cluster.leader();
        int wiped = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();
        cluster.crash(wiped);
        cluster.wipeAndReformat(wiped, NEW_DIRECTORY);
        cluster.runFor(2_000);
        assertFalse(cluster.node(wiped).core.voters().isVoter(new ReplicaKey(wiped, NEW_DIRECTORY)));

        AddVoterResponse duplicate = addVoter(cluster, leader.id, wiped, NEW_DIRECTORY);
        assertEquals(ErrorCode.DUPLICATE_VOTER, duplicate.getErrorCode());
        assertTrue(duplicate.getErrorMessage().contains("remove that voter first"), duplicate.getErrorMessage());
        assertEquals(ErrorCode.NONE, removeVoter(cluster, leader.id, wiped, CoreCluster.directoryId(wiped))
                .getErrorCode());
        AddVoterResponse added = addVoter(cluster, leader.id, wiped, NEW_DIRECTORY);

        assertEquals(ErrorCode.NONE, added.getErrorCode(), added.getErrorMessage());
        awaitCaughtUp(cluster, List.of(1, 2, 3, 4, 5));
        assertTrue(cluster.node(wiped).core.voters().isVoter(new ReplicaKey(wiped, NEW_DIRECTORY)));
        assertEquals(List.of("before"), cluster.node(wiped).listener.committed.subList(0, 1),
                "the wiped voter caught up from the leader");
    }

    @Test
    void eachRefusalOfKip853HasItsCode() {
        CoreCluster cluster = settled(5);
        Node leader = cluster.leader();
        int follower = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();

        AddVoterResponse notLeader = addVoter(cluster, follower, 4, CoreCluster.directoryId(4));
        assertEquals(ErrorCode.NOT_LEADER_OR_FOLLOWER, notLeader.getErrorCode());
        assertTrue(notLeader.getErrorMessage().contains("node " + leader.id + " does"), notLeader.getErrorMessage());
        assertEquals(ErrorCode.DUPLICATE_VOTER, addVoter(cluster, leader.id, follower,
                CoreCluster.directoryId(follower)).getErrorCode());
        assertEquals(ErrorCode.VOTER_NOT_FOUND, removeVoter(cluster, leader.id, follower, NEW_DIRECTORY).getErrorCode());
        assertEquals(ErrorCode.VOTER_NOT_FOUND, removeVoter(cluster, leader.id, 4, CoreCluster.directoryId(4))
                .getErrorCode());
        AddVoterResponse neverFetched = addVoter(cluster, leader.id, 9, CoreCluster.directoryId(9));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, neverFetched.getErrorCode());
        assertTrue(neverFetched.getErrorMessage().contains("has not caught up"), neverFetched.getErrorMessage());
        AddVoterResponse otherCluster = (AddVoterResponse) cluster.clientRequest(leader.id,
                add(4, CoreCluster.directoryId(4), 0).toBuilder().setClusterId("another").build(), WAIT_MS);
        assertEquals(ErrorCode.INCONSISTENT_CLUSTER_ID, otherCluster.getErrorCode());

        cluster.voterIds.stream().filter(id -> id != leader.id).forEach(cluster::crash);
        AddVoterResponse uncommitted = (AddVoterResponse) cluster.clientRequest(leader.id,
                add(4, CoreCluster.directoryId(4), 500), WAIT_MS);
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, uncommitted.getErrorCode());
        assertTrue(uncommitted.getErrorMessage().contains("did not commit in time"), uncommitted.getErrorMessage());
        AddVoterResponse second = addVoter(cluster, leader.id, 5, CoreCluster.directoryId(5));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, second.getErrorCode());
        assertTrue(second.getErrorMessage().contains("another voter change"), second.getErrorMessage());
    }

    @Test
    void theStaticVoterSetIsNotChangedByRequests() {
        CoreCluster cluster = new CoreCluster(3, 1, 6, false);
        long offset = cluster.appendThroughLeader("static");
        cluster.runUntil(() -> cluster.leader().status().highWatermark() > offset, WAIT_MS);

        AddVoterResponse answer = addVoter(cluster, cluster.leader().id, 4, CoreCluster.directoryId(4));

        assertEquals(ErrorCode.UNSUPPORTED_VERSION, answer.getErrorCode());
        assertTrue(answer.getErrorMessage().contains("--initial-controllers"), answer.getErrorMessage());
    }
}
