package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.core.CoreCluster.Node;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DescribeQuorum names the voter change the leader appended and has not committed (KIP-853):
 * between the append of a VotersRecord and its commit the answer carries its offset, the set
 * it installs and the voter it removes; once it commits, nothing.
 */
class PendingVoterChangeInteractionTest {
    private static final long WAIT_MS = 30_000;

    private static DescribeQuorumPartitionResponse describe(CoreCluster cluster, int to) {
        DescribeQuorumResponse answer = (DescribeQuorumResponse) cluster.clientRequest(to,
                QuorumClient.metadataQuorumRequest(), WAIT_MS);
        DescribeQuorumPartitionResponse partition = answer.getTopics(0).getPartitions(0);
        assertEquals(ErrorCode.NONE, partition.getErrorCode(), partition.toString());
        return partition;
    }

    private static List<ReplicaKey> keys(List<io.metaquorum.protocol.ReplicaKey> messages) {
        return messages.stream().map(ReplicaKey::fromMessage).toList();
    }

    @Test
    void aVotersRecordShowsUntilItCommits() {
        CoreCluster cluster = new CoreCluster(3, 0, 11, true);
        long offset = cluster.appendThroughLeader("before");
        cluster.runUntil(() -> cluster.leader() != null && cluster.leader().status().highWatermark() > offset,
                WAIT_MS);
        Node leader = cluster.leader();
        assertFalse(describe(cluster, leader.id).hasPendingVoterChange(), "nothing pending in a settled quorum");
        List<Integer> followers = cluster.voterIds.stream().filter(id -> id != leader.id).toList();
        int removed = followers.get(0);
        int kept = followers.get(1);
        followers.forEach(cluster::isolate);

        // The leader appends the VotersRecord at once; with both followers cut off it cannot commit.
        leader.core.handle(new RaftRequest(RaftRequest.CLIENT, leader.id, 7, RemoveVoterRequest.newBuilder()
                .setClusterId(CoreCluster.CLUSTER_ID).setVoterId(removed)
                .setVoterDirectoryId(CoreCluster.directoryId(removed)).build()), cluster.nowMs);
        cluster.step(leader);
        long recordOffset = leader.status().logEndOffset() - 1;

        DescribeQuorumPartitionResponse during = describe(cluster, leader.id);
        assertTrue(during.hasPendingVoterChange(), during.toString());
        PendingVoterChange pending = during.getPendingVoterChange();
        assertEquals(recordOffset, pending.getOffset());
        assertTrue(pending.getOffset() >= during.getHighWatermark());
        assertEquals(List.of(new ReplicaKey(Math.min(leader.id, kept), CoreCluster.directoryId(Math.min(leader.id,
                kept))), new ReplicaKey(Math.max(leader.id, kept), CoreCluster.directoryId(Math.max(leader.id, kept)))),
                keys(pending.getVotersList()));
        assertEquals(List.of(), pending.getAddedList());
        assertEquals(List.of(new ReplicaKey(removed, CoreCluster.directoryId(removed))),
                keys(pending.getRemovedList()));

        cluster.heal();
        cluster.runUntil(() -> leader.status().highWatermark() > recordOffset, WAIT_MS);
        DescribeQuorumPartitionResponse after = describe(cluster, leader.id);
        assertFalse(after.hasPendingVoterChange(), after.toString());
        assertEquals(2, after.getCurrentVotersCount());
    }

    @Test
    void theRemoveRequestIsAnsweredOnceTheChangeCommits() {
        CoreCluster cluster = new CoreCluster(3, 0, 12, true);
        Node leader = cluster.awaitLeader();
        cluster.runUntil(() -> leader.status().highWatermark() > 0, WAIT_MS);
        int removed = cluster.voterIds.stream().filter(id -> id != leader.id).findFirst().orElseThrow();
        RemoveVoterResponse answer = (RemoveVoterResponse) cluster.clientRequest(leader.id, RemoveVoterRequest
                .newBuilder().setClusterId(CoreCluster.CLUSTER_ID).setVoterId(removed)
                .setVoterDirectoryId(CoreCluster.directoryId(removed)).build(), WAIT_MS);
        assertEquals(ErrorCode.NONE, answer.getErrorCode(), answer.getErrorMessage());
        assertFalse(describe(cluster, leader.id).hasPendingVoterChange());
    }
}
