package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.InsecureChannelCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.server.admin.ControllerAddresses;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RaftLeaderQuorum} against two raft DescribeQuorum services on loopback: node 1 leads,
 * node 2 answers NOT_LEADER_OR_FOLLOWER naming it. A node that knows node 2 as leader still
 * gets node 1's answer; no leader, or one that does not answer, is NOT_LEADER_OR_FOLLOWER; the
 * answer lists every voter's address.
 */
class RaftLeaderQuorumTest {
    private Server leader;
    private Server follower;
    private InetSocketAddress nowhere;
    private final AtomicInteger knownLeader = new AtomicInteger(-1);
    private RaftLeaderQuorum quorum;

    private static Server serve(DescribeQuorumPartitionResponse partition) throws Exception {
        return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new RaftServiceGrpc.RaftServiceImplBase() {
                    @Override
                    public void describeQuorum(DescribeQuorumRequest request,
                                               StreamObserver<DescribeQuorumResponse> observer) {
                        observer.onNext(DescribeQuorumResponse.newBuilder().setErrorCode(ErrorCode.NONE)
                                .addTopics(DescribeQuorumTopicResponse.newBuilder()
                                        .setTopicId(TopicIds.METADATA_TOPIC_ID).addPartitions(partition))
                                .addNodes(NodeEndpoint.newBuilder().setNodeId(99).setHost("x").setPort(1))
                                .build());
                        observer.onCompleted();
                    }
                }).build().start();
    }

    private static InetSocketAddress address(Server server) {
        return (InetSocketAddress) server.getListenSockets().get(0);
    }

    @BeforeEach
    void start() throws Exception {
        leader = serve(DescribeQuorumPartitionResponse.newBuilder().setErrorCode(ErrorCode.NONE).setLeaderId(1)
                .setLeaderEpoch(4).setHighWatermark(42).build());
        follower = serve(DescribeQuorumPartitionResponse.newBuilder().setErrorCode(ErrorCode.NOT_LEADER_OR_FOLLOWER)
                .setLeaderId(1).setLeaderEpoch(4).build());
        Server closed = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).build().start();
        nowhere = address(closed);
        closed.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        quorum = new RaftLeaderQuorum(knownLeader::get, () -> List.of(1, 2),
                ControllerAddresses.configured(Map.of(1, address(leader), 2, address(follower), 3, nowhere)),
                InsecureChannelCredentials.create(), 2_000);
    }

    @AfterEach
    void stop() throws Exception {
        quorum.close();
        leader.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        follower.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private DescribeQuorumResponse describe() throws Exception {
        CompletableFuture<DescribeQuorumResponse> answer = new CompletableFuture<>();
        quorum.describeLeader(answer::complete);
        return answer.get(10, TimeUnit.SECONDS);
    }

    private static DescribeQuorumPartitionResponse partition(DescribeQuorumResponse response) {
        return response.getTopics(0).getPartitions(0);
    }

    @Test
    void aFollowerNamedAsLeaderIsFollowedToTheLeader() throws Exception {
        knownLeader.set(2);
        DescribeQuorumResponse response = describe();
        assertEquals(ErrorCode.NONE, partition(response).getErrorCode());
        assertEquals(42, partition(response).getHighWatermark());
        assertEquals(List.of(1, 2), response.getNodesList().stream().map(NodeEndpoint::getNodeId).toList());
        assertEquals(address(leader).getPort(), response.getNodes(0).getPort());
    }

    @Test
    void noLeaderOrOneThatDoesNotAnswerIsNotLeaderOrFollower() throws Exception {
        knownLeader.set(-1);
        assertEquals(ErrorCode.NOT_LEADER_OR_FOLLOWER, partition(describe()).getErrorCode());
        knownLeader.set(3);
        DescribeQuorumPartitionResponse unreachable = partition(describe());
        assertEquals(ErrorCode.NOT_LEADER_OR_FOLLOWER, unreachable.getErrorCode());
        assertEquals(3, unreachable.getLeaderId());
    }
}
