package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.RaftServiceGrpc.RaftServiceBlockingStub;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Malformed requests are answered at the edge and never reach the sink; oversized ones get
 * RESOURCE_EXHAUSTED from gRPC; the server keeps serving afterwards.
 */
class RaftServiceEdgeValidationTest {
    private static final int SERVER_ID = 2;
    private static final int MESSAGE_BYTES_MAX = 64 << 10;
    private static final int PENDING_CALLS_MAX = 2;

    private final RecordingSink sink = new RecordingSink();
    private GrpcRaftTransport server;
    private ManagedChannel channel;
    private RaftServiceBlockingStub stub;

    @BeforeEach
    void start() {
        GrpcConnectionSettings small = new GrpcConnectionSettings(50, 1000, 10_000, 5_000, MESSAGE_BYTES_MAX,
                PENDING_CALLS_MAX, TransportSecurity.PLAINTEXT);
        server = GrpcRaftTransport.start(new GrpcTransportConfig(SERVER_ID,
                List.of(new InetSocketAddress("127.0.0.1", 0)), Map.of(), 2_000, small), sink, List.of());
        channel = NettyChannelBuilder.forAddress(server.boundAddresses().get(0)).usePlaintext().build();
        stub = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void negativeFetchOffsetIsInvalid() throws Exception {
        FetchRequest negative = RaftPayloads.fetch(-1, 0);
        assertEquals(ErrorCode.INVALID_REQUEST, stub.fetch(negative).getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void missingTopicsOrPartitionsAreInvalid() throws Exception {
        assertEquals(ErrorCode.INVALID_REQUEST, stub.fetch(RaftPayloads.fetch(0, 0).toBuilder().clearTopics().build())
                .getErrorCode());
        VoteRequest noPartition = RaftPayloads.vote().toBuilder()
                .setTopics(0, RaftPayloads.vote().getTopics(0).toBuilder().clearPartitions()).build();
        assertEquals(ErrorCode.INVALID_REQUEST, stub.vote(noPartition).getErrorCode());
        VoteRequest noTopicId = RaftPayloads.vote().toBuilder()
                .setTopics(0, RaftPayloads.vote().getTopics(0).toBuilder().clearTopicId()).build();
        assertEquals(ErrorCode.INVALID_REQUEST, stub.vote(noTopicId).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.describeQuorum(DescribeQuorumRequest.getDefaultInstance())
                .getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void wrongPartitionIndexIsUnknown() throws Exception {
        FetchRequest fetch = RaftPayloads.fetch(0, 0);
        FetchRequest partitionOne = fetch.toBuilder().setTopics(0, fetch.getTopics(0).toBuilder()
                .setPartitions(0, fetch.getTopics(0).getPartitions(0).toBuilder().setPartitionIndex(1))).build();
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, stub.fetch(partitionOne).getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void negativeIdsEpochsAndPositionsAreInvalid() throws Exception {
        VoteRequest vote = RaftPayloads.vote();
        VoteRequest negativeCandidate = vote.toBuilder().setTopics(0, vote.getTopics(0).toBuilder()
                .setPartitions(0, vote.getTopics(0).getPartitions(0).toBuilder().setReplicaId(-5))).build();
        assertEquals(ErrorCode.INVALID_REQUEST, stub.vote(negativeCandidate).getErrorCode());

        FetchSnapshotRequest snapshot = RaftPayloads.fetchSnapshot();
        FetchSnapshotRequest noSnapshotId = snapshot.toBuilder().setTopics(0, snapshot.getTopics(0).toBuilder()
                .setPartitions(0, snapshot.getTopics(0).getPartitions(0).toBuilder().clearSnapshotId())).build();
        assertEquals(ErrorCode.INVALID_REQUEST, stub.fetchSnapshot(noSnapshotId).getErrorCode());
        FetchSnapshotRequest negativePosition = snapshot.toBuilder().setTopics(0, snapshot.getTopics(0).toBuilder()
                .setPartitions(0, snapshot.getTopics(0).getPartitions(0).toBuilder().setPosition(-1))).build();
        assertEquals(ErrorCode.INVALID_REQUEST, stub.fetchSnapshot(negativePosition).getErrorCode());

        assertEquals(ErrorCode.INVALID_REQUEST, stub.fetch(RaftPayloads.fetch(0, -1)).getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void aVoterChangeWithoutADirectoryIdOrAListenerIsInvalidAndSaysWhy() throws Exception {
        AddVoterRequest add = AddVoterRequest.newBuilder().setVoterId(4)
                .setVoterDirectoryId(TopicIds.uuid(0x5EED, 4)).addListeners(VotersRecord.Endpoint.newBuilder()
                        .setName("CONTROLLER").setHost("127.0.0.1").setPort(19094)).build();
        AddVoterResponse noDirectory = stub.addVoter(add.toBuilder().clearVoterDirectoryId().build());
        assertEquals(ErrorCode.INVALID_REQUEST, noDirectory.getErrorCode());
        assertTrue(noDirectory.getErrorMessage().contains("voter_directory_id is missing"),
                noDirectory.getErrorMessage());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.addVoter(add.toBuilder().clearListeners().build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.addVoter(add.toBuilder().setListeners(0,
                add.getListeners(0).toBuilder().setPort(70_000)).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.addVoter(add.toBuilder().setVoterId(-1).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.addVoter(add.toBuilder().setTimeoutMs(-1).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.removeVoter(RemoveVoterRequest.newBuilder().setVoterId(4).build())
                .getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void anUpdateVoterWithoutADirectoryIdAnEpochOrADialableListenerIsInvalidAndSaysWhy() throws Exception {
        UpdateVoterRequest update = UpdateVoterRequest.newBuilder().setVoterId(2).setCurrentLeaderEpoch(3)
                .setVoterDirectoryId(TopicIds.uuid(0x5EED, 2)).addListeners(VotersRecord.Endpoint.newBuilder()
                        .setName("CONTROLLER").setHost("127.0.0.1").setPort(19092)).build();
        UpdateVoterResponse noDirectory = stub.updateVoter(update.toBuilder().clearVoterDirectoryId().build());
        assertEquals(ErrorCode.INVALID_REQUEST, noDirectory.getErrorCode());
        assertTrue(noDirectory.getErrorMessage().contains("voter_directory_id is missing"),
                noDirectory.getErrorMessage());
        UpdateVoterResponse noListener = stub.updateVoter(update.toBuilder().clearListeners().build());
        assertEquals(ErrorCode.INVALID_REQUEST, noListener.getErrorCode());
        assertTrue(noListener.getErrorMessage().contains("at least one listener"), noListener.getErrorMessage());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.updateVoter(update.toBuilder().setListeners(0,
                update.getListeners(0).toBuilder().setHost(" ")).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.updateVoter(update.toBuilder().setListeners(0,
                update.getListeners(0).toBuilder().setPort(0)).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.updateVoter(update.toBuilder().setVoterId(-1).build())
                .getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, stub.updateVoter(update.toBuilder().setCurrentLeaderEpoch(-1).build())
                .getErrorCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void oversizedRequestIsResourceExhausted() throws Exception {
        VoteRequest huge = RaftPayloads.vote().toBuilder()
                .setClusterIdBytes(ByteString.copyFrom(new byte[MESSAGE_BYTES_MAX + 1])).build();
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> stub.vote(huge));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
        assertStillServingAndNothingReachedTheSink();
    }

    @Test
    void requestsBeyondThePendingLimitAreRefused() throws Exception {
        RaftServiceGrpc.RaftServiceFutureStub async = RaftServiceGrpc.newFutureStub(channel)
                .withDeadlineAfter(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < PENDING_CALLS_MAX; i++) {
            async.fetch(RaftPayloads.fetch(0, 0));
            sink.next(RaftRequest.class); // parked, never answered until the server closes
        }
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                () -> stub.fetch(RaftPayloads.fetch(0, 0)));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
        assertEquals(PENDING_CALLS_MAX, server.pendingInboundCalls());
    }

    /** A valid request afterwards is the first thing the sink ever saw, and is answered. */
    private void assertStillServingAndNothingReachedTheSink() throws Exception {
        assertEquals(0, sink.pending(), "a refused request reached the core");
        ListenableFuture<DescribeQuorumResponse> answer = RaftServiceGrpc.newFutureStub(channel)
                .withDeadlineAfter(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS)
                .describeQuorum(QuorumClient.metadataQuorumRequest());
        RaftRequest inbound = sink.next(RaftRequest.class);
        assertEquals(QuorumClient.metadataQuorumRequest(), inbound.payload());
        DescribeQuorumResponse response = DescribeQuorumResponse.newBuilder().setClusterId("c").build();
        server.send(new RaftResponse(SERVER_ID, RaftRequest.CLIENT, inbound.correlationId(), response));
        assertEquals(response, answer.get(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, sink.pending());
    }
}
