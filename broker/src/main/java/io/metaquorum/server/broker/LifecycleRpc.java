package io.metaquorum.server.broker;

import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The broker lifecycle RPCs as a broker makes them: plaintext gRPC to one controller at a
 * time, each call with a deadline. The controller is the one last named in an answer (the
 * active controller), else the next in id order after a failure; any controller forwards to
 * the active one anyway. Used by one thread.
 */
final class LifecycleRpc implements AutoCloseable {
    private final Map<Integer, ManagedChannel> channels = new TreeMap<>();
    private final List<Integer> controllerIds;
    private final long callTimeoutMs;
    private int target;

    LifecycleRpc(Map<Integer, InetSocketAddress> controllers, long callTimeoutMs) {
        controllers.forEach((id, address) -> channels.put(id, ManagedChannelBuilder
                .forAddress(address.getHostString(), address.getPort()).usePlaintext().build()));
        this.controllerIds = new ArrayList<>(channels.keySet());
        this.callTimeoutMs = callTimeoutMs;
        this.target = controllerIds.get(0);
    }

    BrokerRegistrationResponse register(BrokerRegistrationRequest request) {
        try {
            BrokerRegistrationResponse response = stub().registerBroker(request);
            follow(response.getControllerId());
            return response;
        } catch (StatusRuntimeException e) {
            rotate();
            throw e;
        }
    }

    BrokerHeartbeatResponse heartbeat(BrokerHeartbeatRequest request) {
        try {
            BrokerHeartbeatResponse response = stub().brokerHeartbeat(request);
            follow(response.getControllerId());
            return response;
        } catch (StatusRuntimeException e) {
            rotate();
            throw e;
        }
    }

    /** The controller the next call goes to. */
    int target() {
        return target;
    }

    private BrokerLifecycleServiceGrpc.BrokerLifecycleServiceBlockingStub stub() {
        return BrokerLifecycleServiceGrpc.newBlockingStub(channels.get(target))
                .withDeadlineAfter(callTimeoutMs, TimeUnit.MILLISECONDS);
    }

    private void follow(int controllerId) {
        if (channels.containsKey(controllerId)) {
            target = controllerId;
        }
    }

    private void rotate() {
        target = controllerIds.get((controllerIds.indexOf(target) + 1) % controllerIds.size());
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
