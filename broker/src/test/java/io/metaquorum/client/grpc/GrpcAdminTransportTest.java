package io.metaquorum.client.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.metaquorum.client.AdminClient;
import io.metaquorum.client.AdminException;
import io.metaquorum.client.ScriptedAdminService;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsResponse;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.net.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The production transport (plaintext Netty) against a real server on a loopback ephemeral port. */
class GrpcAdminTransportTest {
    private Server server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.shutdownNow();
        }
    }

    private HostPort serve(ScriptedAdminService service) throws IOException {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
        if (service != null) {
            builder.addService(service);
        }
        server = builder.build().start();
        return new HostPort("127.0.0.1", server.getPort());
    }

    @Test
    void aCallOverNettyGetsTheNodesAnswer() throws IOException {
        ScriptedAdminService service = new ScriptedAdminService().answer(ListTopicsResponse.newBuilder()
                .setHeader(AdminResponseHeader.newBuilder().setControllerId(1))
                .addTopics(ListedTopic.newBuilder().setName("demo")).build());
        try (AdminClient client = AdminClient.connect(List.of(serve(service)))) {
            assertEquals("demo", client.listTopics(5_000).get(0).getName());
        }
    }

    @Test
    void aNodeWithoutTheAdminServiceIsReportedAsSuch() throws IOException {
        HostPort node = serve(null);
        try (AdminClient client = AdminClient.connect(List.of(node))) {
            AdminException failure = assertThrows(AdminException.class, () -> client.listTopics(5_000));
            assertEquals(ErrorCode.UNSUPPORTED_VERSION, failure.code());
            assertTrue(failure.getMessage().contains("serves no admin API"), failure.getMessage());
        }
    }

    @Test
    void transportStatusesAreClassed() {
        assertEquals(ErrorClass.REFRESH_AND_RETRY, GrpcAdminTransport.classify(Status.Code.UNAVAILABLE));
        assertEquals(ErrorClass.REFRESH_AND_RETRY, GrpcAdminTransport.classify(Status.Code.DEADLINE_EXCEEDED));
        assertEquals(ErrorClass.RETRIABLE, GrpcAdminTransport.classify(Status.Code.RESOURCE_EXHAUSTED));
        assertEquals(ErrorClass.INVALID_REQUEST_CLASS, GrpcAdminTransport.classify(Status.Code.UNIMPLEMENTED));
        assertEquals(ErrorClass.INVALID_REQUEST_CLASS, GrpcAdminTransport.classify(Status.Code.INTERNAL));
        assertEquals(ErrorCode.UNSUPPORTED_VERSION, GrpcAdminTransport.reportedCode(Status.Code.UNIMPLEMENTED));
    }
}
