package io.metaquorum.bench.grpc;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.server.HostPort;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The broker RPCs (broker.proto) as the benchmarks call them, over plaintext gRPC to the
 * given nodes: one channel per node, each call with a 2 s deadline, to the node picked by
 * index (a node that is not the active controller forwards). Thread-safe.
 */
public final class BrokerLifecycleCalls implements AutoCloseable {
    private static final long DEADLINE_MS = 2_000;
    private final List<ManagedChannel> channels;

    public BrokerLifecycleCalls(List<HostPort> nodes) {
        this.channels = nodes.stream().map(c -> (ManagedChannel) ManagedChannelBuilder
                .forAddress(c.host(), c.port()).usePlaintext().build()).toList();
    }

    public int nodeCount() {
        return channels.size();
    }

    /**
     * Registers broker {@code id} (listener PLAINTEXT 127.0.0.1:{@code port}) through node
     * {@code node}; returns its broker epoch, or -1 if refused. Throws on a transport failure.
     */
    public long register(int node, int id, Uuid incarnationId, int port) {
        BrokerRegistrationResponse registered = stub(node).registerBroker(BrokerRegistrationRequest.newBuilder()
                .setBrokerId(id).setIncarnationId(incarnationId)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1").setPort(port))
                .build());
        return registered.getErrorCode() == ErrorCode.NONE ? registered.getBrokerEpoch() : -1;
    }

    /** One heartbeat of broker {@code id} through node {@code node}; returns its error code. */
    public ErrorCode heartbeat(int node, int id, long epoch, long metadataOffset) {
        return stub(node).brokerHeartbeat(BrokerHeartbeatRequest.newBuilder().setBrokerId(id).setBrokerEpoch(epoch)
                .setCurrentMetadataOffset(metadataOffset).build()).getErrorCode();
    }

    private BrokerLifecycleServiceGrpc.BrokerLifecycleServiceBlockingStub stub(int node) {
        return BrokerLifecycleServiceGrpc.newBlockingStub(channels.get(Math.floorMod(node, channels.size())))
                .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        channels.forEach(ManagedChannel::shutdownNow);
    }
}
