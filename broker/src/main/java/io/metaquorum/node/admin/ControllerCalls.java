package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ResponseSink;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.node.controller.ControllerGateway;
import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.protocol.ErrorCode;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where a write goes: to this node's controller when it is active, else forwarded to the
 * active one, else answered NOT_CONTROLLER. Shared by the admin and lifecycle handlers.
 *
 * <p>Routing, in order: active → submitted to the controller's queue (a full queue answers
 * {@link #QUEUE_FULL}, retriable: THROTTLING_QUOTA_EXCEEDED rather than REQUEST_TIMED_OUT,
 * because nothing was done and the client must not wonder whether the write may still land);
 * a request that was itself forwarded → NOT_CONTROLLER (never forwarded twice); a known
 * controller other than this node → forwarded, and a failed forward → NOT_CONTROLLER; no
 * controller known → NOT_CONTROLLER. NOT_CONTROLLER is REFRESH_AND_RETRY: the client finds
 * the controller (the answer names the one this node knows) and retries.
 *
 * <p>Authorization happens where the write is decided: on the active controller's thread,
 * against its committed image, just before the controller runs it ({@link NodeAccess#admit},
 * then the operation's own checks through the {@link RequestAccess} it is handed). The node
 * that forwards decides nothing about it.
 */
final class ControllerCalls {
    static final ApiError QUEUE_FULL = ApiError.of(ErrorCode.THROTTLING_QUOTA_EXCEEDED,
            "The controller's request queue is full; retry after a backoff.");

    private final ControllerGateway gateway;
    private final Forwarding forwarding;
    private final NodeAccess access;

    ControllerCalls(ControllerGateway gateway, Forwarding forwarding, NodeAccess access) {
        this.gateway = gateway;
        this.forwarding = forwarding;
        this.access = access;
    }

    ControllerGateway gateway() {
        return gateway;
    }

    NodeAccess access() {
        return access;
    }

    /**
     * One write's call into the controller, with the sink that answers the client and the
     * caller's rights on the controller's committed image.
     */
    @FunctionalInterface
    interface AuthorizedOperation<R> {
        void run(QuorumController controller, long nowMs, RequestAccess access, ResponseSink<R> sink);
    }

    /**
     * Routes one write.
     *
     * @param requestTimeoutMs the request's own {@code timeout_ms} (0 when none): a forwarded
     *                         call may take that long on the controller, on top of the
     *                         forwarding deadline
     * @param operation        the controller call, once the caller is admitted
     * @param failed           the whole request failed with this error (every entry carries it)
     */
    <Q, R> void write(AdminMethod<Q, R> method, Q request, CallOrigin origin, int requestTimeoutMs,
                      Consumer<R> answer, AuthorizedOperation<R> operation, Function<ApiError, R> failed) {
        RequestTrace trace = origin.trace();
        Consumer<R> reply = trace.isOn() ? response -> {
            trace.mark(RequestTrace.Stage.ANSWERED);
            answer.accept(response);
        } : answer;
        if (gateway.isActive()) {
            trace.mark(RequestTrace.Stage.QUEUED);
            ResponseSink<R> sink = reply::accept;
            // Active when routed, but it may have lost the leadership before its turn came.
            boolean queued = gateway.submit((controller, nowMs) -> {
                if (controller.isActive()) {
                    RequestAccess rights = new RequestAccess(access, controller.committedImage(), origin.caller());
                    Optional<ApiError> refused = access.admit(rights.image(), origin.caller(), origin.aclOffset());
                    if (refused.isPresent()) {
                        reply.accept(failed.apply(refused.get()));
                    } else {
                        operation.run(controller, nowMs, rights, sink);
                    }
                } else {
                    reply.accept(failed.apply(notController("This node's controller stopped being active "
                            + "before it ran the request.", gateway.knownControllerId())));
                }
            }, trace);
            if (!queued) {
                reply.accept(failed.apply(QUEUE_FULL));
            }
            return;
        }
        int controllerId = gateway.knownControllerId();
        if (origin.isForwarded()) {
            reply.accept(failed.apply(notController("This node is not the active controller and does not "
                    + "forward a request that was forwarded to it.", controllerId)));
            return;
        }
        if (!forwarding.canForwardTo(controllerId)) {
            reply.accept(failed.apply(notController(controllerId < 0 ? "No active controller is known."
                    : "This node is not the active controller.", controllerId)));
            return;
        }
        trace.mark(RequestTrace.Stage.FORWARDED);
        forwarding.forward(controllerId, method, request, Math.max(0, requestTimeoutMs), origin, reply,
                error -> reply.accept(failed.apply(notController("Forwarding to the active controller failed: "
                        + error.getMessage(), controllerId))));
    }

    private static ApiError notController(String message, int controllerId) {
        String known = controllerId < 0 ? "" : " The active controller is node " + controllerId + ".";
        return ApiError.of(ErrorCode.NOT_CONTROLLER, message + known);
    }
}
