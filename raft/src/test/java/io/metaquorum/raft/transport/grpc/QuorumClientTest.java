package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class QuorumClientTest {
    @Test
    void describesTheMetadataQuorum() throws Exception {
        RecordingSink sink = new RecordingSink();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (GrpcRaftTransport server = GrpcRaftTransport.start(new GrpcTransportConfig(3,
                List.of(new InetSocketAddress("127.0.0.1", 0)), Map.of(), 2_000, GrpcConnectionSettings.DEFAULTS),
                sink, List.of());
             QuorumClient client = new QuorumClient(server.boundAddresses().get(0), 30_000)) {
            CompletableFuture<DescribeQuorumResponse> answer =
                    CompletableFuture.supplyAsync(client::describeMetadataQuorum, caller);

            RaftRequest inbound = sink.next(RaftRequest.class);
            assertEquals(RaftRequest.CLIENT, inbound.sourceId());
            DescribeQuorumResponse response = DescribeQuorumResponse.newBuilder().setClusterId("c")
                    .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                            .addPartitions(DescribeQuorumPartitionResponse.newBuilder().setLeaderId(3)
                                    .setLeaderEpoch(7).setHighWatermark(12)))
                    .build();
            server.send(new RaftResponse(3, RaftRequest.CLIENT, inbound.correlationId(), response));

            assertEquals(response, answer.get(RecordingSink.WAIT_SECONDS, TimeUnit.SECONDS));
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void nothingListeningIsUnavailable() throws Exception {
        try (RefusingPort nobody = RefusingPort.open();
             QuorumClient client = new QuorumClient(nobody.address(), 30_000)) {
            StatusRuntimeException failure = assertThrows(StatusRuntimeException.class, client::describeMetadataQuorum);
            assertEquals(Status.Code.UNAVAILABLE, failure.getStatus().getCode());
        }
    }
}
