package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.protocol.BeginQuorumEpochPartitionRequest;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.BeginQuorumEpochTopicRequest;
import io.metaquorum.protocol.DescribeQuorumPartitionRequest;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumTopicRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotTopicRequest;
import io.metaquorum.protocol.FetchTopicRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.RaftServiceGrpc.RaftServiceBlockingStub;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.protocol.VoteTopicRequest;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.server.ConfigKeys;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Bad input against live nodes, sent by a raw gRPC client: malformed requests (negative
 * offsets, missing topics, a missing snapshot id), an oversized request, a Vote and a
 * BeginQuorumEpoch from a node id that is no voter, and requests of another cluster or topic.
 * Each gets an error code (RESOURCE_EXHAUSTED for the oversized one), none changes the
 * epoch, and afterwards every node still answers and replicates in the quorum.
 */
class BadRequestProcessTest {
    private static final int UNKNOWN_NODE_ID = 99;
    /** The epoch the bogus Vote and BeginQuorumEpoch claim, this far above the real one: never reached honestly. */
    private static final int BOGUS_EPOCH_STEP = 1000;
    /** Above the server's 8 MiB inbound message limit. */
    private static final int OVERSIZED_REQUEST_BYTES = 9 << 20;
    private static final long CALL_TIMEOUT_MS = 10_000;
    private static final Uuid FOREIGN_TOPIC_ID = Uuid.newBuilder().setMostSignificantBits(1234)
            .setLeastSignificantBits(5678).build();

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void badRequestsGetErrorCodesAndTheNodesStayInTheQuorum(TestInfo test) throws InterruptedException {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20"));
        QuorumReport before = cluster.awaitAllCaughtUp("a leader with every voter caught up", 10);
        int leader = before.leaderId();
        int follower = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();

        for (int target : List.of(leader, follower)) {
            sendBadRequests(target, before.leaderEpoch());
        }

        QuorumReport after = cluster.awaitAllCaughtUp("the quorum commits on and every voter catches up",
                before.highWatermark() + 20);
        assertTrue(after.leaderEpoch() < before.leaderEpoch() + BOGUS_EPOCH_STEP,
                "no bogus epoch was adopted: epoch " + after.leaderEpoch());
        assertFalse(cluster.roleChanges().stream().anyMatch(c -> c.toEpoch() >= before.leaderEpoch() + BOGUS_EPOCH_STEP),
                "no node moved to the bogus epoch: " + cluster.roleChanges());
        for (int id : ControllerCluster.NODE_IDS) {
            assertTrue(cluster.node(id).isRunning(), "node " + id + " runs");
            assertTrue(cluster.describePartition(id).isPresent(), "node " + id + " answers DescribeQuorum");
        }
    }

    private void sendBadRequests(int target, int epoch) throws InterruptedException {
        String clusterId = cluster.clusterId();
        int peer = ControllerCluster.NODE_IDS.stream().filter(id -> id != target).findFirst().orElseThrow();
        String to = " sent to node " + target;
        ManagedChannel channel = NettyChannelBuilder.forAddress(cluster.node(target).address().toAddress())
                .usePlaintext().disableRetry().build();
        try {
            assertEquals(ErrorCode.INVALID_REQUEST, stub(channel).fetch(fetch(clusterId, peer, epoch, -1)).getErrorCode(),
                    "Fetch with a negative offset" + to);
            assertEquals(ErrorCode.INVALID_REQUEST, stub(channel).fetch(FetchRequest.newBuilder().setClusterId(clusterId)
                    .setReplicaId(peer).build()).getErrorCode(), "Fetch without topics" + to);
            assertEquals(ErrorCode.INVALID_REQUEST, stub(channel).fetch(fetch(clusterId, -5, epoch, 0)).getErrorCode(),
                    "Fetch from replica -5" + to);
            assertEquals(ErrorCode.INVALID_REQUEST, errorOf(stub(channel).vote(
                    vote(clusterId, target, peer, epoch, -1))), "Vote with a negative last offset" + to);
            assertEquals(ErrorCode.INVALID_REQUEST, stub(channel).fetchSnapshot(fetchSnapshotWithoutId(clusterId, peer,
                    epoch)).getErrorCode(), "FetchSnapshot without a snapshot id" + to);

            VoteResponse unknownVoter = stub(channel).vote(vote(clusterId, target, UNKNOWN_NODE_ID,
                    epoch + BOGUS_EPOCH_STEP, 1L << 40));
            assertEquals(ErrorCode.INCONSISTENT_VOTER_SET, errorOf(unknownVoter), "Vote from node 99" + to);
            assertFalse(unknownVoter.getTopicsCount() == 1 && unknownVoter.getTopics(0).getPartitions(0).getVoteGranted(),
                    "vote granted to node 99" + to);
            assertEquals(ErrorCode.INCONSISTENT_VOTER_SET, errorOf(stub(channel).beginQuorumEpoch(
                    beginQuorumEpoch(clusterId, target, UNKNOWN_NODE_ID, epoch + BOGUS_EPOCH_STEP))),
                    "BeginQuorumEpoch from node 99" + to);

            assertEquals(ErrorCode.INCONSISTENT_CLUSTER_ID, stub(channel).fetch(fetch("another-cluster", peer, epoch, 0))
                    .getErrorCode(), "Fetch with another cluster id" + to);
            assertEquals(ErrorCode.INCONSISTENT_TOPIC_ID, stub(channel).fetch(fetch(clusterId, peer, epoch, 0).toBuilder()
                    .setTopics(0, fetch(clusterId, peer, epoch, 0).getTopics(0).toBuilder().setTopicId(FOREIGN_TOPIC_ID))
                    .build()).getErrorCode(), "Fetch for another topic id" + to);
            assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, stub(channel).describeQuorum(describeQuorum(3))
                    .getErrorCode(), "DescribeQuorum of partition 3" + to);

            FetchRequest oversized = fetch("x".repeat(OVERSIZED_REQUEST_BYTES), peer, epoch, 0);
            StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                    () -> stub(channel).fetch(oversized), "a 9 MiB Fetch" + to);
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode(), "a 9 MiB Fetch" + to);

            assertEquals(ErrorCode.NONE, stub(channel).describeQuorum(QuorumClient.metadataQuorumRequest())
                    .getErrorCode(), "DescribeQuorum on the same connection afterwards" + to);
        } finally {
            channel.shutdownNow();
            channel.awaitTermination(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        }
    }

    private static RaftServiceBlockingStub stub(ManagedChannel channel) {
        return RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    private static FetchRequest fetch(String clusterId, int replicaId, int epoch, long fetchOffset) {
        return FetchRequest.newBuilder().setClusterId(clusterId).setReplicaId(replicaId).setMaxWaitMs(0)
                .addTopics(FetchTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchPartitionRequest.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION)
                                .setCurrentLeaderEpoch(epoch).setFetchOffset(fetchOffset).setLastFetchedEpoch(0)
                                .setLogStartOffset(0).setPartitionMaxBytes(1024)))
                .build();
    }

    private static VoteRequest vote(String clusterId, int voterId, int candidateId, int epoch, long lastOffset) {
        return VoteRequest.newBuilder().setClusterId(clusterId).setVoterId(voterId)
                .addTopics(VoteTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(VotePartitionRequest.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION)
                                .setReplicaEpoch(epoch).setReplicaId(candidateId).setLastOffsetEpoch(epoch)
                                .setLastOffset(lastOffset).setPreVote(false)))
                .build();
    }

    private static BeginQuorumEpochRequest beginQuorumEpoch(String clusterId, int voterId, int leaderId, int epoch) {
        return BeginQuorumEpochRequest.newBuilder().setClusterId(clusterId).setVoterId(voterId)
                .addTopics(BeginQuorumEpochTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(BeginQuorumEpochPartitionRequest.newBuilder()
                                .setPartitionIndex(TopicIds.METADATA_PARTITION).setLeaderId(leaderId)
                                .setLeaderEpoch(epoch)))
                .build();
    }

    private static FetchSnapshotRequest fetchSnapshotWithoutId(String clusterId, int replicaId, int epoch) {
        return FetchSnapshotRequest.newBuilder().setClusterId(clusterId).setReplicaId(replicaId).setMaxBytes(1024)
                .addTopics(FetchSnapshotTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(FetchSnapshotPartitionRequest.newBuilder()
                                .setPartitionIndex(TopicIds.METADATA_PARTITION).setCurrentLeaderEpoch(epoch)))
                .build();
    }

    private static DescribeQuorumRequest describeQuorum(int partitionIndex) {
        return DescribeQuorumRequest.newBuilder()
                .addTopics(DescribeQuorumTopicRequest.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(DescribeQuorumPartitionRequest.newBuilder().setPartitionIndex(partitionIndex)))
                .build();
    }

    /** The response's error: the top-level one if set, else the partition's. */
    private static ErrorCode errorOf(VoteResponse response) {
        if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() == 0) {
            return response.getErrorCode();
        }
        return response.getTopics(0).getPartitions(0).getErrorCode();
    }

    private static ErrorCode errorOf(BeginQuorumEpochResponse response) {
        if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() == 0) {
            return response.getErrorCode();
        }
        return response.getTopics(0).getPartitions(0).getErrorCode();
    }
}
