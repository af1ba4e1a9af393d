package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.metaquorum.node.admin.LifecycleRequests;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.ControlledShutdownResponse;

/**
 * The broker lifecycle RPCs on a node's gRPC listener, handed to the node's
 * {@link LifecycleRequests} with the origin the call's headers carry.
 *
 * <p>Register {@link #service()}, not the endpoint itself: it adds the interceptor that
 * recognises forwarded calls.
 */
public final class BrokerLifecycleEndpoint extends BrokerLifecycleServiceGrpc.BrokerLifecycleServiceImplBase {
    private final LifecycleRequests requests;

    public BrokerLifecycleEndpoint(LifecycleRequests requests) {
        this.requests = requests;
    }

    /** What to register on the node's gRPC server ({@link ForwardedCalls#bind}). */
    public BindableService service() {
        return ForwardedCalls.bind(this);
    }

    @Override
    public void registerBroker(BrokerRegistrationRequest request, StreamObserver<BrokerRegistrationResponse> observer) {
        requests.registerBroker(request, ForwardedCalls.origin(), answer -> AdminServiceEndpoint.reply(observer,
                answer));
    }

    @Override
    public void brokerHeartbeat(BrokerHeartbeatRequest request, StreamObserver<BrokerHeartbeatResponse> observer) {
        requests.brokerHeartbeat(request, ForwardedCalls.origin(), answer -> AdminServiceEndpoint.reply(observer,
                answer));
    }

    @Override
    public void controlledShutdown(ControlledShutdownRequest request,
                                   StreamObserver<ControlledShutdownResponse> observer) {
        requests.controlledShutdown(request, ForwardedCalls.origin(), answer -> AdminServiceEndpoint.reply(observer,
                answer));
    }
}
