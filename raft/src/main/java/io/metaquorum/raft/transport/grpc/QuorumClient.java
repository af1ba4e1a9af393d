package io.metaquorum.raft.transport.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.DescribeQuorumPartitionRequest;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.raft.TopicIds;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A blocking client for tools ({@code mq-metadata quorum}, {@code add-controller},
 * {@code remove-controller}): asks one node for its view of the metadata quorum, or its
 * leader to add or remove a voter (KIP-853). The answer is the core's (replica progress is
 * known to the leader only, and only the leader changes the voters); the request names no
 * replica, so it arrives at the core from {@code RaftRequest.CLIENT}.
 *
 * <p>Failures are gRPC's: {@link io.grpc.StatusRuntimeException} with UNAVAILABLE (nothing
 * listens there), DEADLINE_EXCEEDED (no answer within the timeout), RESOURCE_EXHAUSTED or
 * PERMISSION_DENIED. One instance holds one connection; close it. Thread-safe.
 */
public final class QuorumClient implements AutoCloseable {
    private static final int RESPONSE_BYTES_MAX = 8 << 20;

    private final ManagedChannel channel;
    private final long timeoutMs;

    public QuorumClient(InetSocketAddress address, long timeoutMs) {
        this(address, timeoutMs, TransportSecurity.PLAINTEXT.channel());
    }

    /** A client whose connection uses {@code credentials} (TLS for a node with an SSL listener). */
    public QuorumClient(InetSocketAddress address, long timeoutMs, ChannelCredentials credentials) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeoutMs must be > 0, got " + timeoutMs);
        }
        this.channel = NettyChannelBuilder.forAddress(address, credentials)
                .disableRetry()
                .maxInboundMessageSize(RESPONSE_BYTES_MAX)
                .build();
        this.timeoutMs = timeoutMs;
    }

    /** The request for the metadata log's only partition. */
    public static DescribeQuorumRequest metadataQuorumRequest() {
        return DescribeQuorumRequest.newBuilder()
                .addTopics(DescribeQuorumTopicRequest.newBuilder()
                        .setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(DescribeQuorumPartitionRequest.newBuilder()
                                .setPartitionIndex(TopicIds.METADATA_PARTITION)))
                .build();
    }

    /** Describes the metadata quorum; blocks up to the timeout. */
    public DescribeQuorumResponse describeMetadataQuorum() {
        return describeQuorum(metadataQuorumRequest());
    }

    /** Sends {@code request} as is; blocks up to the timeout. */
    public DescribeQuorumResponse describeQuorum(DescribeQuorumRequest request) {
        return RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                .describeQuorum(request);
    }

    /**
     * Asks the node (the leader) to add a voter; blocks up to the timeout, which should exceed
     * the request's own {@code timeout_ms}.
     */
    public AddVoterResponse addVoter(AddVoterRequest request) {
        return RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                .addVoter(request);
    }

    /** Asks the node (the leader) to remove a voter; blocks up to the timeout. */
    public RemoveVoterResponse removeVoter(RemoveVoterRequest request) {
        return RaftServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS)
                .removeVoter(request);
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
