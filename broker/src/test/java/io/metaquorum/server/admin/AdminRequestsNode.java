package io.metaquorum.server.admin;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A node's {@link AdminRequests} over a real controller ({@link TestControllerGateway}, active,
 * node 1) and no sockets, for the tests of what sits on top of it outside this package (the
 * Kafka-protocol adapters). Brokers are registered with the listeners a test gives them.
 */
public final class AdminRequestsNode implements AutoCloseable {
    public static final String CLUSTER_ID = AdminTestNode.CLUSTER_ID;
    public static final int NODE_ID = 1;

    private final TestControllerGateway gateway;
    private final ControllerForwarder forwarder;
    private final NodeRequests requests;

    private AdminRequestsNode(NodeAccess access) {
        this.gateway = new TestControllerGateway(NODE_ID).becomeActive();
        this.forwarder = new ControllerForwarder(NODE_ID, Map.of(), AdminTestNode.FORWARD_TIMEOUT_MS);
        this.requests = NodeRequests.create(gateway, forwarder, CLUSTER_ID, access);
    }

    /** The active controller's node, authorizing with {@code access}. */
    public static AdminRequestsNode active(NodeAccess access) {
        return new AdminRequestsNode(access);
    }

    public AdminRequests admin() {
        return requests.admin();
    }

    public MetadataImage image() {
        return gateway.committedImage();
    }

    /** Registers broker {@code id} with {@code listeners}; heartbeats it unfenced unless {@code fenced}. */
    public void register(int id, List<BrokerEndpoint> listeners, boolean fenced, CallOrigin origin) {
        BrokerRegistrationRequest registration = BrokerRegistrationRequest.newBuilder().setClusterId(CLUSTER_ID)
                .setBrokerId(id).setIncarnationId(TopicIds.uuid(id, 42)).setRack(id % 2 == 0 ? "rack-b" : "")
                .addAllListeners(listeners).build();
        BrokerRegistrationResponse registered = await(reply -> requests.lifecycle().registerBroker(registration,
                origin, reply));
        if (registered.getErrorCode() != ErrorCode.NONE) {
            throw new AssertionError(registered.toString());
        }
        if (!fenced) {
            BrokerHeartbeatRequest beat = BrokerHeartbeatRequest.newBuilder().setBrokerId(id)
                    .setBrokerEpoch(registered.getBrokerEpoch()).setCurrentMetadataOffset(registered.getBrokerEpoch())
                    .build();
            BrokerHeartbeatResponse unfenced = await(reply -> requests.lifecycle().brokerHeartbeat(beat, origin,
                    reply));
            if (unfenced.getIsFenced()) {
                throw new AssertionError(unfenced.toString());
            }
        }
    }

    /** Waits until the committed image satisfies {@code condition}: an answer may come before it is published. */
    public void awaitImage(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the committed image never got there");
            }
            Thread.onSpinWait();
        }
    }

    /** Calls an asynchronous AdminRequests method and waits for its answer. */
    public static <R> R await(Consumer<Consumer<R>> call) {
        CompletableFuture<R> answer = new CompletableFuture<>();
        call.accept(answer::complete);
        try {
            return answer.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public void close() throws Exception {
        forwarder.close();
        gateway.close();
    }
}
