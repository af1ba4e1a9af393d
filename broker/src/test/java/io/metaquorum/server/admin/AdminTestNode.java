package io.metaquorum.server.admin;

import io.metaquorum.common.time.SystemTime;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.NodeRequests;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.util.MutableHandlerRegistry;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * One node for the endpoint tests: a gRPC server on 127.0.0.1 (an ephemeral port, bound
 * first so that nodes can learn each other's addresses before their endpoints exist), a
 * {@link TestControllerGateway}, and client stubs to its own listener.
 */
final class AdminTestNode implements AutoCloseable {
    static final String CLUSTER_ID = "test-cluster";
    static final long FORWARD_TIMEOUT_MS = 2_000;

    final TestControllerGateway gateway;
    private final MutableHandlerRegistry registry = new MutableHandlerRegistry();
    private final Server server;
    private final ManagedChannel channel;
    private ControllerForwarder forwarder;

    AdminTestNode(int nodeId) throws IOException {
        this.gateway = new TestControllerGateway(nodeId);
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .fallbackHandlerRegistry(registry).build().start();
        this.channel = NettyChannelBuilder.forAddress(address()).usePlaintext().build();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getListenSockets().get(0);
    }

    /**
     * Serves {@code active} as the active controller and {@code standby} as a node that knows it
     * and forwards to it (both voters), with broker 7 registered and unfenced.
     */
    static void serveActiveAndStandby(AdminTestNode active, AdminTestNode standby) {
        Map<Integer, InetSocketAddress> voters = Map.of(active.gateway.nodeId(), active.address(),
                standby.gateway.nodeId(), standby.address());
        active.gateway.becomeActive();
        active.serve(voters);
        standby.serve(voters);
        standby.gateway.knowController(active.gateway.nodeId());
        standby.registerUnfenced(7);
    }

    /** Node 1 serving as the active controller with brokers 1-3 registered and unfenced. */
    static AdminTestNode activeWithThreeBrokers() throws IOException {
        AdminTestNode node = new AdminTestNode(1);
        node.gateway.becomeActive();
        node.serve(Map.of());
        for (int broker = 1; broker <= 3; broker++) {
            node.registerUnfenced(broker);
        }
        return node;
    }

    /** Starts the endpoints, forwarding to {@code controllers}. */
    AdminTestNode serve(Map<Integer, InetSocketAddress> controllers) {
        forwarder = new ControllerForwarder(gateway.nodeId(), controllers, FORWARD_TIMEOUT_MS);
        NodeRequests requests = NodeRequests.create(gateway, forwarder, CLUSTER_ID, NodeAccess.DISABLED);
        registry.addService(new AdminServiceEndpoint(requests.admin(), SystemTime.INSTANCE, gateway.nodeId()).service()
                .bindService());
        registry.addService(new BrokerLifecycleEndpoint(requests.lifecycle()).service().bindService());
        return this;
    }

    AdminServiceGrpc.AdminServiceBlockingStub admin() {
        return AdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    BrokerLifecycleServiceGrpc.BrokerLifecycleServiceBlockingStub lifecycle() {
        return BrokerLifecycleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    /** Registers broker {@code id} and heartbeats it unfenced; returns its broker epoch. */
    long registerUnfenced(int id) {
        BrokerRegistrationResponse registered = lifecycle().registerBroker(registration(id));
        assertEquals(ErrorCode.NONE, registered.getErrorCode(), registered.getErrorMessage());
        BrokerHeartbeatResponse beat = lifecycle().brokerHeartbeat(BrokerHeartbeatRequest.newBuilder()
                .setBrokerId(id).setBrokerEpoch(registered.getBrokerEpoch())
                .setCurrentMetadataOffset(registered.getBrokerEpoch()).build());
        assertEquals(ErrorCode.NONE, beat.getErrorCode(), beat.getErrorMessage());
        assertFalse(beat.getIsFenced());
        return registered.getBrokerEpoch();
    }

    static BrokerRegistrationRequest registration(int id) {
        return BrokerRegistrationRequest.newBuilder().setClusterId(CLUSTER_ID).setBrokerId(id)
                .setIncarnationId(TopicIds.uuid(id, 42)).setRack("")
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost").setPort(9092 + id))
                .build();
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow();
        if (forwarder != null) {
            forwarder.close();
        }
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
        gateway.close();
    }
}
