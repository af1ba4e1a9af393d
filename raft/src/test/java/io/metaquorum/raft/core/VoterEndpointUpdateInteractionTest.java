package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.CoreCluster.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * UpdateVoter (KIP-853's UpdateRaftVoter) through real cores: a voter restarted with another
 * listener asks its leader to update its entry, and every node ends up with the new endpoint
 * and the same voters; the leader refuses it while another change is pending (and AddVoter or
 * RemoveVoter while it is), for another epoch, for a directory the set does not list, and
 * without a listener.
 */
class VoterEndpointUpdateInteractionTest {
    private static final long WAIT_MS = 30_000;
    private static final List<VoterSet.Endpoint> MOVED = List.of(new VoterSet.Endpoint("127.0.0.1", 19202));

    private static UpdateVoterRequest update(int id, Uuid directoryId, int epoch, List<VoterSet.Endpoint> listeners) {
        UpdateVoterRequest.Builder request = UpdateVoterRequest.newBuilder().setClusterId(CoreCluster.CLUSTER_ID)
                .setCurrentLeaderEpoch(epoch).setVoterId(id).setVoterDirectoryId(directoryId);
        listeners.forEach(e -> request.addListeners(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER")
                .setHost(e.host()).setPort(e.port())));
        return request.build();
    }

    private static UpdateVoterResponse updateVoter(CoreCluster cluster, int to, UpdateVoterRequest request) {
        return (UpdateVoterResponse) cluster.clientRequest(to, request, WAIT_MS);
    }

    /** Three voters and one observer with directory ids, a leader and a committed write, everyone caught up. */
    private static CoreCluster settled(long seed) {
        CoreCluster cluster = new CoreCluster(3, 1, seed, true);
        long offset = cluster.appendThroughLeader("before");
        cluster.runUntil(() -> cluster.leader() != null && List.of(1, 2, 3, 4).stream()
                .allMatch(id -> cluster.node(id).status().highWatermark() > offset), WAIT_MS);
        return cluster;
    }

    private static int aFollower(CoreCluster cluster) {
        int leader = cluster.leader().id;
        return cluster.voterIds.stream().filter(id -> id != leader).findFirst().orElseThrow();
    }

    /** The node restarts with {@code listeners} in its configuration, as after an operator moved it. */
    private static void restartListeningAt(CoreCluster cluster, int id, List<VoterSet.Endpoint> listeners) {
        cluster.crash(id);
        cluster.node(id).listeners = listeners;
        cluster.restart(id);
    }

    private static boolean everyNodeListsAt(CoreCluster cluster, int id, List<VoterSet.Endpoint> endpoints) {
        return cluster.nodes.values().stream().allMatch(n -> n.core.voters().voter(id)
                .map(VoterSet.Voter::endpoints).filter(endpoints::equals).isPresent());
    }

    @Test
    void aVoterRestartedAtAnotherListenerHasItsEntryUpdatedOnEveryNode() {
        CoreCluster cluster = settled(11);
        int moved = aFollower(cluster);

        restartListeningAt(cluster, moved, MOVED);
        cluster.runUntil(() -> everyNodeListsAt(cluster, moved, MOVED), WAIT_MS);

        for (Node node : cluster.nodes.values()) {
            VoterSet voters = node.core.voters();
            assertEquals(List.of(1, 2, 3), voters.ids(), "node " + node.id);
            for (int id : cluster.voterIds) {
                assertTrue(voters.isVoter(new ReplicaKey(id, CoreCluster.directoryId(id))), "node " + node.id);
                if (id != moved) {
                    assertEquals(List.of(), voters.voter(id).orElseThrow().endpoints(), "only the moved voter changed");
                }
            }
        }
        long end = cluster.leader().status().logEndOffset();
        cluster.runFor(10_000);
        assertEquals(end, cluster.leader().status().logEndOffset(), "the voter stops asking once the set has it");
    }

    @Test
    void aVoterWhoseListenerDidNotMoveNeverAsks() {
        CoreCluster cluster = settled(12);
        int follower = aFollower(cluster);
        restartListeningAt(cluster, follower, MOVED);
        cluster.runUntil(() -> everyNodeListsAt(cluster, follower, MOVED), WAIT_MS);
        long end = cluster.leader().status().logEndOffset();

        restartListeningAt(cluster, follower, MOVED);
        cluster.runFor(10_000);

        assertEquals(end, cluster.leader().status().logEndOffset(), "no VotersRecord for an unchanged listener");
    }

    @Test
    void oneChangeAtATimeAndTheMovedVoterRetriesOnceThePendingOneCommitted() {
        CoreCluster cluster = settled(13);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();
        int moved = aFollower(cluster);
        leader.listener.takesControlRecords = true;
        cluster.sendClientRequest(leader.id, AddVoterRequest.newBuilder().setClusterId(CoreCluster.CLUSTER_ID)
                .setVoterId(4).setVoterDirectoryId(CoreCluster.directoryId(4))
                .addListeners(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER").setHost("127.0.0.1")
                        .setPort(19204)).build());

        UpdateVoterResponse refused = updateVoter(cluster, leader.id, update(moved, CoreCluster.directoryId(moved),
                epoch, MOVED));
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, refused.getErrorCode(), "an AddVoter is pending");
        restartListeningAt(cluster, moved, MOVED);
        cluster.runFor(3_000);
        assertEquals(List.of(), leader.core.voters().voter(moved).orElseThrow().endpoints(), "refused meanwhile");

        leader.listener.takesControlRecords = false;
        leader.core.appendControl(epoch, leader.listener.controlRecordsTaken.get(0), cluster.nowMs);
        cluster.runUntil(() -> everyNodeListsAt(cluster, moved, MOVED), WAIT_MS);
        assertEquals(List.of(1, 2, 3, 4), leader.core.voters().ids(), "the AddVoter went through first");
        assertEquals(epoch, leader.status().epoch(), "no election");
    }

    @Test
    void aPendingUpdateRefusesRemoveVoter() {
        CoreCluster cluster = settled(14);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();
        int moved = aFollower(cluster);
        leader.listener.takesControlRecords = true;
        cluster.sendClientRequest(leader.id, update(moved, CoreCluster.directoryId(moved), epoch, MOVED));

        RemoveVoterResponse removal = (RemoveVoterResponse) cluster.clientRequest(leader.id, RemoveVoterRequest
                .newBuilder().setClusterId(CoreCluster.CLUSTER_ID).setVoterId(moved)
                .setVoterDirectoryId(CoreCluster.directoryId(moved)).build(), WAIT_MS);

        assertEquals(ErrorCode.REQUEST_TIMED_OUT, removal.getErrorCode(), "one change at a time");
    }

    @Test
    void theLeaderRefusesAnotherEpochAnUnknownDirectoryAndNoListener() {
        CoreCluster cluster = settled(15);
        Node leader = cluster.leader();
        int epoch = leader.status().epoch();
        int follower = aFollower(cluster);
        Uuid directory = CoreCluster.directoryId(follower);

        assertEquals(ErrorCode.FENCED_LEADER_EPOCH,
                updateVoter(cluster, leader.id, update(follower, directory, epoch - 1, MOVED)).getErrorCode());
        assertEquals(ErrorCode.UNKNOWN_LEADER_EPOCH,
                updateVoter(cluster, leader.id, update(follower, directory, epoch + 1, MOVED)).getErrorCode());
        assertEquals(ErrorCode.VOTER_NOT_FOUND, updateVoter(cluster, leader.id,
                update(follower, TopicIds.uuid(0xBEEF, follower), epoch, MOVED)).getErrorCode());
        assertEquals(ErrorCode.VOTER_NOT_FOUND, updateVoter(cluster, leader.id,
                update(4, CoreCluster.directoryId(4), epoch, MOVED)).getErrorCode(), "an observer has no entry");
        assertEquals(ErrorCode.INVALID_REQUEST,
                updateVoter(cluster, leader.id, update(follower, directory, epoch, List.of())).getErrorCode());
        assertEquals(ErrorCode.NOT_LEADER_OR_FOLLOWER,
                updateVoter(cluster, follower, update(follower, directory, epoch, MOVED)).getErrorCode());
        for (Node node : cluster.nodes.values()) {
            assertEquals(List.of(), node.core.voters().voter(follower).orElseThrow().endpoints(), "node " + node.id);
        }
    }
}
