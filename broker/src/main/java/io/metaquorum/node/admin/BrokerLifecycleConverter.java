package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatResponse;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.ControlledShutdownResponse;

/**
 * RegisterBroker, BrokerHeartbeat and ControlledShutdown between the wire and the
 * controller's types. A controlled shutdown is a heartbeat that wants to shut down.
 */
final class BrokerLifecycleConverter {
    private BrokerLifecycleConverter() {
    }

    static RegisterBrokerRequest toController(BrokerRegistrationRequest request) {
        return new RegisterBrokerRequest(request.getBrokerId(), request.getIncarnationId(), request.getListenersList(),
                request.getRack());
    }

    static BrokerRegistrationResponse toProto(RegisterBrokerResponse response, int controllerId) {
        return BrokerRegistrationResponse.newBuilder().setErrorCode(response.error().code())
                .setErrorMessage(response.error().message()).setBrokerEpoch(response.brokerEpoch())
                .setControllerId(controllerId).build();
    }

    static BrokerRegistrationResponse registrationFailed(ApiError error, int controllerId) {
        return toProto(new RegisterBrokerResponse(error, -1), controllerId);
    }

    static HeartbeatRequest toController(BrokerHeartbeatRequest request) {
        return new HeartbeatRequest(request.getBrokerId(), request.getBrokerEpoch(),
                request.getCurrentMetadataOffset(), request.getWantFence(), request.getWantShutDown());
    }

    static BrokerHeartbeatResponse toProto(HeartbeatResponse response, int controllerId) {
        return BrokerHeartbeatResponse.newBuilder().setErrorCode(response.error().code())
                .setErrorMessage(response.error().message()).setIsCaughtUp(response.isCaughtUp())
                .setIsFenced(response.isFenced()).setShouldShutDown(response.shouldShutDown())
                .setControllerId(controllerId).build();
    }

    static BrokerHeartbeatResponse heartbeatFailed(ApiError error, int controllerId) {
        return toProto(new HeartbeatResponse(error, false, true, false), controllerId);
    }

    /**
     * The heartbeat a controlled shutdown stands for. {@code metadataOffset} is the committed
     * offset this node knows: a request to leave never unfences, so the exact broker offset
     * does not matter.
     */
    static HeartbeatRequest shutdownHeartbeat(ControlledShutdownRequest request, long metadataOffset) {
        return new HeartbeatRequest(request.getBrokerId(), request.getBrokerEpoch(), metadataOffset, false, true);
    }

    static ControlledShutdownResponse toShutdownProto(HeartbeatResponse response, int remainingLeaderships,
                                                      int controllerId) {
        return ControlledShutdownResponse.newBuilder().setErrorCode(response.error().code())
                .setErrorMessage(response.error().message()).setRemainingLeaderships(remainingLeaderships)
                .setControllerId(controllerId).build();
    }

    static ControlledShutdownResponse shutdownFailed(ApiError error, int controllerId) {
        return ControlledShutdownResponse.newBuilder().setErrorCode(error.code()).setErrorMessage(error.message())
                .setRemainingLeaderships(-1).setControllerId(controllerId).build();
    }
}
