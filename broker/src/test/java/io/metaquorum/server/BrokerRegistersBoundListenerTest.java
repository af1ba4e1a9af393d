package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListTopicsResponse;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker node started with {@code listeners=127.0.0.1:0} (a real {@link NodeServer} in this
 * JVM) registers the port its transport bound, not port 0, and that endpoint reaches it. The
 * controller is a stand-in that records the registration and answers NOT_CONTROLLER, so the
 * broker keeps retrying and nothing else is needed.
 */
class BrokerRegistersBoundListenerTest {
    private static final long WAIT_SECONDS = 30;
    private static final long SHUTDOWN_MS = 2_000;

    @TempDir
    Path dir;
    /** Registrations the stand-in controller received; bounded, later ones are dropped. */
    private final BlockingQueue<BrokerRegistrationRequest> registrations = new ArrayBlockingQueue<>(16);
    private final List<String> faults = new CopyOnWriteArrayList<>();
    private Server controller;
    private NodeServer broker;
    private ManagedChannel channel;

    @AfterEach
    void stop() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow();
        }
        if (broker != null) {
            broker.shutdown(SHUTDOWN_MS);
        }
        if (controller != null) {
            controller.shutdownNow().awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBrokerOnPortZeroRegistersThePortItBoundAndIsReachedThere() throws Exception {
        controller = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new RecordingLifecycleService()).build().start();
        int controllerPort = ((InetSocketAddress) controller.getListenSockets().get(0)).getPort();
        ServerConfig config = ServerConfig.parse(Map.of("process.roles", "broker", "node.id", "4",
                "controller.quorum.voters", "1@127.0.0.1:" + controllerPort, "listeners", "127.0.0.1:0",
                "metadata.log.dir", dir.resolve("metadata").toString(), "log.dirs", dir.resolve("logs").toString()));
        String clusterId = ClusterIds.random();
        StorageFormatter.format(config, clusterId, false, line -> { });

        broker = NodeServer.start(config, clusterId, (message, cause) -> faults.add(message));

        HostPort bound = broker.listener();
        assertNotEquals(0, bound.port(), "the node reports the port it got");
        BrokerRegistrationRequest registration = registrations.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(registration, "no registration within " + WAIT_SECONDS + " s");
        assertEquals(List.of(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                .setPort(bound.port()).build()), registration.getListenersList());
        BrokerEndpoint registered = registration.getListeners(0);
        channel = NettyChannelBuilder.forAddress(registered.getHost(), registered.getPort()).usePlaintext().build();
        ListTopicsResponse answer = AdminServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(WAIT_SECONDS, TimeUnit.SECONDS).listTopics(ListTopicsRequest.getDefaultInstance());
        assertEquals(ErrorCode.NONE, answer.getHeader().getErrorCode(), "the registered endpoint is the broker");
        assertEquals(List.of(), faults);
    }

    @Test
    void aBrokerRegistersItsKafkaListenersAfterItsGrpcListenerAndServesThere() throws Exception {
        controller = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new RecordingLifecycleService()).build().start();
        int controllerPort = ((InetSocketAddress) controller.getListenSockets().get(0)).getPort();
        ServerConfig config = ServerConfig.parse(Map.of("process.roles", "broker", "node.id", "4",
                "controller.quorum.voters", "1@127.0.0.1:" + controllerPort,
                "listeners", "EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "listener.security.protocol.map", "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT",
                "inter.broker.listener.name", "INTERNAL",
                "metadata.log.dir", dir.resolve("metadata").toString(), "log.dirs", dir.resolve("logs").toString()));
        String clusterId = ClusterIds.random();
        StorageFormatter.format(config, clusterId, false, line -> { });

        broker = NodeServer.start(config, clusterId, (message, cause) -> faults.add(message));

        HostPort grpc = broker.listener();
        List<ListenerSpec> kafka = broker.kafkaListeners();
        assertEquals(1, kafka.size());
        assertNotEquals(0, kafka.get(0).address().port(), "the Kafka listener reports the port it got");
        BrokerRegistrationRequest registration = registrations.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(registration, "no registration within " + WAIT_SECONDS + " s");
        assertEquals(List.of(
                BrokerEndpoint.newBuilder().setName("INTERNAL").setHost("127.0.0.1").setPort(grpc.port()).build(),
                BrokerEndpoint.newBuilder().setName("EXTERNAL").setHost("127.0.0.1")
                        .setPort(kafka.get(0).address().port()).build()), registration.getListenersList(),
                "the gRPC endpoint first, which readers take as the broker's address");
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", kafka.get(0).address().port())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            RequestHeader header = new RequestHeader(ApiKeys.API_VERSIONS, (short) 3, "test", 1);
            java.nio.ByteBuffer payload = new ApiVersionsRequest.Builder().build((short) 3).serializeWithHeader(header);
            java.io.DataOutputStream out = new java.io.DataOutputStream(socket.getOutputStream());
            out.writeInt(payload.remaining());
            out.write(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            ApiVersionsResponse response = (ApiVersionsResponse) AbstractResponse.parseResponse(
                    java.nio.ByteBuffer.wrap(answer), header);
            assertEquals(Errors.NONE.code(), response.data().errorCode(), "the node's KafkaApis answer there");
        }
        assertEquals(List.of(), faults);
    }

    /** The controller's side of the broker lifecycle, as far as registration: record it, refuse it. */
    private final class RecordingLifecycleService extends BrokerLifecycleServiceGrpc.BrokerLifecycleServiceImplBase {
        @Override
        public void registerBroker(BrokerRegistrationRequest request,
                                   StreamObserver<BrokerRegistrationResponse> answer) {
            registrations.offer(request);
            answer.onNext(BrokerRegistrationResponse.newBuilder().setErrorCode(ErrorCode.NOT_CONTROLLER)
                    .setControllerId(-1).build());
            answer.onCompleted();
        }
    }
}
