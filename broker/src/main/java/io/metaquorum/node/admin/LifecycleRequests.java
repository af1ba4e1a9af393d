package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.ControlledShutdownResponse;
import io.metaquorum.protocol.ErrorCode;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The broker lifecycle RPCs ({@code broker.proto}) of a node, independent of its transport:
 * checked at the edge, then routed like every write ({@link ControllerCalls}). A registration
 * naming another cluster is refused with INCONSISTENT_CLUSTER_ID (an empty cluster id is not
 * checked). A controlled shutdown is a heartbeat that wants to shut down; its answer counts the
 * partitions the broker still leads in the controller's committed image. Every one needs
 * CLUSTER_ACTION on the cluster (a node principal in {@code super.users}, in practice).
 */
public final class LifecycleRequests {
    public static final AdminMethod<BrokerRegistrationRequest, BrokerRegistrationResponse> REGISTER_BROKER =
            new AdminMethod<>("RegisterBroker", (handlers, origin, request, reply) ->
                    handlers.lifecycle().registerBroker(request, origin, reply));
    public static final AdminMethod<BrokerHeartbeatRequest, BrokerHeartbeatResponse> BROKER_HEARTBEAT =
            new AdminMethod<>("BrokerHeartbeat", (handlers, origin, request, reply) ->
                    handlers.lifecycle().brokerHeartbeat(request, origin, reply));
    public static final AdminMethod<ControlledShutdownRequest, ControlledShutdownResponse> CONTROLLED_SHUTDOWN =
            new AdminMethod<>("ControlledShutdown", (handlers, origin, request, reply) ->
                    handlers.lifecycle().controlledShutdown(request, origin, reply));

    private final ControllerCalls calls;
    private final String clusterId;

    /** @param clusterId this cluster's id; registrations for another one are refused */
    LifecycleRequests(ControllerCalls calls, String clusterId) {
        this.calls = calls;
        this.clusterId = clusterId;
    }

    public void registerBroker(BrokerRegistrationRequest request, CallOrigin origin,
                               Consumer<BrokerRegistrationResponse> reply) {
        Optional<ApiError> bad = RequestLimits.check(request).map(LifecycleRequests::invalid);
        if (bad.isEmpty() && !request.getClusterId().isEmpty() && !request.getClusterId().equals(clusterId)) {
            bad = Optional.of(ApiError.of(ErrorCode.INCONSISTENT_CLUSTER_ID, "Broker " + request.getBrokerId()
                    + " belongs to cluster " + request.getClusterId() + ", not " + clusterId + "."));
        }
        if (bad.isPresent()) {
            reply.accept(BrokerLifecycleConverter.registrationFailed(bad.get(), controllerId()));
            return;
        }
        calls.write(REGISTER_BROKER, request, origin, 0, reply,
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.CLUSTER_ACTION)) {
                        sink.complete(BrokerLifecycleConverter.registrationFailed(AdminRequests.clusterDenied(),
                                controllerId()));
                        return;
                    }
                    controller.registerBroker(BrokerLifecycleConverter.toController(request), nowMs,
                            response -> sink.complete(BrokerLifecycleConverter.toProto(response, controllerId())));
                },
                error -> BrokerLifecycleConverter.registrationFailed(error, controllerId()));
    }

    public void brokerHeartbeat(BrokerHeartbeatRequest request, CallOrigin origin,
                                Consumer<BrokerHeartbeatResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(BrokerLifecycleConverter.heartbeatFailed(invalid(bad.get()), controllerId()));
            return;
        }
        calls.write(BROKER_HEARTBEAT, request, origin, 0, reply,
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.CLUSTER_ACTION)) {
                        sink.complete(BrokerLifecycleConverter.heartbeatFailed(AdminRequests.clusterDenied(),
                                controllerId()));
                        return;
                    }
                    controller.heartbeat(BrokerLifecycleConverter.toController(request), nowMs,
                            response -> sink.complete(BrokerLifecycleConverter.toProto(response, controllerId())));
                },
                error -> BrokerLifecycleConverter.heartbeatFailed(error, controllerId()));
    }

    public void controlledShutdown(ControlledShutdownRequest request, CallOrigin origin,
                                   Consumer<ControlledShutdownResponse> reply) {
        Optional<String> bad = RequestLimits.check(request);
        if (bad.isPresent()) {
            reply.accept(BrokerLifecycleConverter.shutdownFailed(invalid(bad.get()), controllerId()));
            return;
        }
        calls.write(CONTROLLED_SHUTDOWN, request, origin, 0, reply,
                (controller, nowMs, rights, sink) -> {
                    if (!rights.allowsOnCluster(AclOperation.CLUSTER_ACTION)) {
                        sink.complete(BrokerLifecycleConverter.shutdownFailed(AdminRequests.clusterDenied(),
                                controllerId()));
                        return;
                    }
                    controller.heartbeat(BrokerLifecycleConverter.shutdownHeartbeat(request,
                            controller.committedImage().lastCommittedOffset()), nowMs,
                            response -> sink.complete(BrokerLifecycleConverter.toShutdownProto(response,
                                    response.error().isSuccess() ? TopicReadsConverter.leaderships(
                                            controller.committedImage(), request.getBrokerId()) : -1,
                                    controllerId())));
                },
                error -> BrokerLifecycleConverter.shutdownFailed(error, controllerId()));
    }

    private int controllerId() {
        return calls.gateway().knownControllerId();
    }

    private static ApiError invalid(String message) {
        return ApiError.of(ErrorCode.INVALID_REQUEST, message);
    }
}
