package io.metaquorum.server.admin;

import io.grpc.BindableService;
import io.grpc.stub.StreamObserver;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.ControlledShutdownResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.server.controller.ControllerGateway;
import java.util.Optional;

/**
 * The broker lifecycle RPCs ({@code broker.proto}) on a node's listener: checked at the edge,
 * then routed like every write ({@link ControllerCalls}). A registration naming another
 * cluster is refused with INCONSISTENT_CLUSTER_ID (an empty cluster id is not checked). A
 * controlled shutdown is a heartbeat that wants to shut down; its answer counts the
 * partitions the broker still leads in the controller's committed image.
 *
 * <p>Register {@link #service()}, not the endpoint itself: it adds the interceptor that
 * recognises forwarded calls.
 */
public final class BrokerLifecycleEndpoint extends BrokerLifecycleServiceGrpc.BrokerLifecycleServiceImplBase {
    private final ControllerCalls calls;
    private final ControllerGateway gateway;
    private final String clusterId;

    /**
     * @param gateway   this node's controller and committed image
     * @param forwarder how to reach the active controller when this node is not it
     * @param clusterId this cluster's id; registrations for another one are refused
     */
    public BrokerLifecycleEndpoint(ControllerGateway gateway, ControllerForwarder forwarder, String clusterId) {
        this.calls = new ControllerCalls(gateway, forwarder);
        this.gateway = gateway;
        this.clusterId = clusterId;
    }

    /** What to register on the node's gRPC server ({@link ForwardedCalls#bind}). */
    public BindableService service() {
        return ForwardedCalls.bind(this);
    }

    @Override
    public void registerBroker(BrokerRegistrationRequest request, StreamObserver<BrokerRegistrationResponse> observer) {
        Optional<ApiError> bad = RequestLimits.check(request).map(BrokerLifecycleEndpoint::invalid);
        if (bad.isEmpty() && !request.getClusterId().isEmpty() && !request.getClusterId().equals(clusterId)) {
            bad = Optional.of(ApiError.of(ErrorCode.INCONSISTENT_CLUSTER_ID, "Broker " + request.getBrokerId()
                    + " belongs to cluster " + request.getClusterId() + ", not " + clusterId + "."));
        }
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, BrokerLifecycleConverter.registrationFailed(bad.get(), controllerId()));
            return;
        }
        calls.write(BrokerLifecycleServiceGrpc.getRegisterBrokerMethod(), request, 0, observer,
                sink -> (controller, nowMs) -> controller.registerBroker(BrokerLifecycleConverter.toController(request),
                        nowMs, response -> sink.complete(BrokerLifecycleConverter.toProto(response, controllerId()))),
                error -> BrokerLifecycleConverter.registrationFailed(error, controllerId()));
    }

    @Override
    public void brokerHeartbeat(BrokerHeartbeatRequest request, StreamObserver<BrokerHeartbeatResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, BrokerLifecycleConverter.heartbeatFailed(invalid(bad.get()),
                    controllerId()));
            return;
        }
        calls.write(BrokerLifecycleServiceGrpc.getBrokerHeartbeatMethod(), request, 0, observer,
                sink -> (controller, nowMs) -> controller.heartbeat(BrokerLifecycleConverter.toController(request),
                        nowMs, response -> sink.complete(BrokerLifecycleConverter.toProto(response, controllerId()))),
                error -> BrokerLifecycleConverter.heartbeatFailed(error, controllerId()));
    }

    @Override
    public void controlledShutdown(ControlledShutdownRequest request,
                                   StreamObserver<ControlledShutdownResponse> observer) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            ControllerCalls.reply(observer, BrokerLifecycleConverter.shutdownFailed(invalid(bad.get()),
                    controllerId()));
            return;
        }
        calls.write(BrokerLifecycleServiceGrpc.getControlledShutdownMethod(), request, 0, observer,
                sink -> (controller, nowMs) -> controller.heartbeat(BrokerLifecycleConverter.shutdownHeartbeat(
                        request, controller.committedImage().lastCommittedOffset()), nowMs,
                        response -> sink.complete(BrokerLifecycleConverter.toShutdownProto(response,
                                response.error().isSuccess() ? TopicReadsConverter.leaderships(
                                        controller.committedImage(), request.getBrokerId()) : -1,
                                controllerId()))),
                error -> BrokerLifecycleConverter.shutdownFailed(error, controllerId()));
    }

    private int controllerId() {
        return gateway.knownControllerId();
    }

    private static ApiError invalid(String message) {
        return ApiError.of(ErrorCode.INVALID_REQUEST, message);
    }
}
