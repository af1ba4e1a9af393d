package io.metaquorum.server.broker;

import io.grpc.ManagedChannel;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.node.LifecycleTransport;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The broker lifecycle RPCs over gRPC (plaintext or TLS as the node's listener), asynchronous: each call carries the same
 * deadline as the broker node's own (so gRPC frees it too), and its outcome is handed to the
 * node's thread through {@code nodeThread}. Which controller a call goes to is the node's
 * decision.
 */
final class GrpcLifecycleTransport implements LifecycleTransport, AutoCloseable {
    private final Map<Integer, ManagedChannel> channels = new TreeMap<>();
    private final long callTimeoutMs;
    private final Executor nodeThread;

    GrpcLifecycleTransport(Map<Integer, InetSocketAddress> controllers, ChannelCredentials credentials,
                           long callTimeoutMs, Executor nodeThread) {
        controllers.forEach((id, address) -> channels.put(id, Grpc
                .newChannelBuilderForAddress(address.getHostString(), address.getPort(), credentials).build()));
        this.callTimeoutMs = callTimeoutMs;
        this.nodeThread = nodeThread;
    }

    @Override
    public void send(int controllerId, LifecycleCall call, Callback callback) {
        BrokerLifecycleServiceGrpc.BrokerLifecycleServiceStub stub = BrokerLifecycleServiceGrpc
                .newStub(channels.get(controllerId)).withDeadlineAfter(callTimeoutMs, TimeUnit.MILLISECONDS);
        if (call instanceof LifecycleCall.Register register) {
            stub.registerBroker(register.request(), observer(callback::onRegistration, callback));
        } else if (call instanceof LifecycleCall.Heartbeat heartbeat) {
            stub.brokerHeartbeat(heartbeat.request(), observer(callback::onHeartbeat, callback));
        }
    }

    private <R> StreamObserver<R> observer(Consumer<R> onAnswer, Callback callback) {
        return new StreamObserver<>() {
            @Override
            public void onNext(R response) {
                nodeThread.execute(() -> onAnswer.accept(response));
            }

            @Override
            public void onError(Throwable error) {
                String reason = error instanceof StatusRuntimeException status
                        ? status.getStatus().getCode().toString() : error.toString();
                nodeThread.execute(() -> callback.onFailure(reason));
            }

            @Override
            public void onCompleted() {
                // A unary call: onNext carried the answer.
            }
        };
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
