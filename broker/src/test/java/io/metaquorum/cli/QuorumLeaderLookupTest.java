package io.metaquorum.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import io.metaquorum.net.HostPort;
import io.metaquorum.security.grpc.ClientSecurity;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real gRPC transports on loopback, answering DescribeQuorum as a leader (node 1) or a follower would. */
class QuorumLeaderLookupTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);
    private static final long TIMEOUT_MS = 10_000;
    private static final int LEADER = 1;
    private static final int EPOCH = 7;

    private final List<GrpcRaftTransport> nodes = new ArrayList<>();

    @AfterEach
    void closeAll() {
        nodes.forEach(GrpcRaftTransport::close);
    }

    /** A node that answers every DescribeQuorum with {@code error} and leader 1, and reaches {@code peers}. */
    private HostPort node(int id, ErrorCode error, Map<Integer, InetSocketAddress> peers) {
        AtomicReference<GrpcRaftTransport> self = new AtomicReference<>();
        GrpcRaftTransport transport = GrpcRaftTransport.start(new GrpcTransportConfig(id, List.of(ANY_LOOPBACK_PORT),
                peers, 2_000, GrpcConnectionSettings.DEFAULTS), (RaftMessage message) -> {
                    if (message instanceof RaftRequest request) {
                        self.get().send(new RaftResponse(id, request.sourceId(), request.correlationId(),
                                answer(error)));
                    }
                }, List.of());
        self.set(transport);
        nodes.add(transport);
        InetSocketAddress bound = transport.boundAddresses().get(0);
        return new HostPort(bound.getHostString(), bound.getPort());
    }

    private static DescribeQuorumResponse answer(ErrorCode error) {
        return DescribeQuorumResponse.newBuilder().addTopics(DescribeQuorumTopicResponse.newBuilder()
                .setTopicId(TopicIds.METADATA_TOPIC_ID).addPartitions(DescribeQuorumPartitionResponse.newBuilder()
                        .setPartitionIndex(TopicIds.METADATA_PARTITION).setErrorCode(error)
                        .setLeaderId(LEADER).setLeaderEpoch(EPOCH).setHighWatermark(42)))
                .build();
    }

    @Test
    void aFollowerLeadsTheToolToTheLeader() {
        HostPort leader = node(LEADER, ErrorCode.NONE, Map.of());
        HostPort follower = node(2, ErrorCode.NOT_LEADER_OR_FOLLOWER, Map.of(LEADER, leader.toAddress()));
        DescribeQuorumResponse found = QuorumLeaderLookup.describeLeader(List.of(follower), TIMEOUT_MS,
                ClientSecurity.PLAINTEXT);
        assertEquals(ErrorCode.NONE, found.getTopics(0).getPartitions(0).getErrorCode());
        assertEquals(42, found.getTopics(0).getPartitions(0).getHighWatermark());
    }

    @Test
    void aFollowerThatCannotSayWhereTheLeaderIsEndsWithAHint() {
        HostPort follower = node(2, ErrorCode.NOT_LEADER_OR_FOLLOWER, Map.of());
        CommandFailure failure = assertThrows(CommandFailure.class,
                () -> QuorumLeaderLookup.describeLeader(List.of(follower), TIMEOUT_MS, ClientSecurity.PLAINTEXT));
        assertTrue(failure.getMessage().contains("leader is node 1 in epoch 7")
                && failure.getMessage().endsWith("add node 1's address to --bootstrap-controller"
                        + " (a comma-separated list is tried in order)"), failure.getMessage());
    }
}
