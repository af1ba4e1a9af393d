package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mq-trace header and trailer of the admin listener, over gRPC, with and without a forward. */
class TracedCallsTest {
    private AdminTestNode node1;
    private AdminTestNode node2;

    @AfterEach
    void stop() throws Exception {
        for (AdminTestNode node : new AdminTestNode[] {node1, node2}) {
            if (node != null) {
                node.close();
            }
        }
    }

    @Test
    void aTracedWriteForwardedToTheControllerCarriesBothNodesStagesAndAnUntracedOneNone() throws Exception {
        node1 = new AdminTestNode(1);
        node2 = new AdminTestNode(2);
        AdminTestNode.serveActiveAndStandby(node1, node2);

        AtomicReference<Metadata> trailers = new AtomicReference<>();
        CreateTopicsResponse response = create(node2, "t1", true, trailers);
        assertEquals(ErrorCode.NONE, response.getTopics(0).getErrorCode(), response.getTopics(0).getErrorMessage());
        String trace = trailers.get().get(TracedCalls.HEADER);
        assertTrue(trace.matches("node=2 handle_us=\\d+ forward_us=\\d+ reply_us=\\d+ total_us=\\d+"
                + "; node=1 edge_us=\\d+ reply_us=\\d+ total_us=\\d+"), trace);

        create(node2, "t2", false, trailers);
        assertNull(trailers.get().get(TracedCalls.HEADER), "not asked for: no trace");
    }

    @Test
    void aTracedRequestNoControllerRanStillReportsItsTime() throws Exception {
        node1 = new AdminTestNode(1).serve(Map.of());
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        CreateTopicsResponse response = create(node1, "t1", true, trailers);
        assertEquals(ErrorCode.NOT_CONTROLLER, response.getHeader().getErrorCode());
        assertTrue(trailers.get().get(TracedCalls.HEADER).matches("node=1 reply_us=\\d+ total_us=\\d+"),
                trailers.get().get(TracedCalls.HEADER));
    }

    private static CreateTopicsResponse create(AdminTestNode node, String name, boolean traced,
                                               AtomicReference<Metadata> trailers) {
        Metadata ask = new Metadata();
        if (traced) {
            ask.put(TracedCalls.HEADER, "1");
        }
        AdminServiceGrpc.AdminServiceBlockingStub stub = node.admin().withInterceptors(
                MetadataUtils.newAttachHeadersInterceptor(ask),
                MetadataUtils.newCaptureMetadataInterceptor(new AtomicReference<>(), trailers));
        return stub.createTopics(CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder().setName(name)
                .setNumPartitions(1).setReplicationFactor(1)).setTimeoutMs(5_000).build());
    }
}
