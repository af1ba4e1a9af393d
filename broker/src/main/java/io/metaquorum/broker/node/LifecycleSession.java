package io.metaquorum.broker.node;

import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The broker's lifecycle calls on the wire: one call in flight, each under a deadline, to one
 * controller at a time. The target is the controller last named in an answer (the active
 * controller), else the next in id order after a failure; any controller forwards to the
 * active one anyway. An answer or failure that comes after the call's deadline, or for an
 * earlier call, is dropped: the lifecycle has moved on.
 *
 * <p>States: idle ({@code deadlineMs == Long.MAX_VALUE}) or one call in flight, identified by
 * {@code callId}; the call ends by its answer, its failure or its deadline, whichever comes
 * first. Single-threaded; time comes in as {@code nowMs}, or from the injected clock for an
 * outcome, which arrives between the node's steps.
 */
final class LifecycleSession {
    private final BrokerLifecycle lifecycle;
    private final LifecycleTransport transport;
    /** Invariant: non-empty, ascending. */
    private final List<Integer> controllerIds;
    private final long callTimeoutMs;
    /** The node's clock, read when an outcome arrives (outcomes come between the node's steps). */
    private final LongSupplier clockMs;
    /** Invariant: one of {@code controllerIds}. */
    private int target;
    /** The id of the call in flight, or of the last one. */
    private long callId;
    private long deadlineMs = Long.MAX_VALUE;

    LifecycleSession(BrokerLifecycle lifecycle, LifecycleTransport transport, List<Integer> controllerIds,
                     long callTimeoutMs, LongSupplier clockMs) {
        Invariants.check(!controllerIds.isEmpty(), "a broker needs at least one controller");
        Invariants.check(callTimeoutMs > 0, "the lifecycle call timeout must be > 0, got %d", callTimeoutMs);
        this.lifecycle = lifecycle;
        this.transport = transport;
        this.controllerIds = List.copyOf(new TreeSet<>(controllerIds));
        this.callTimeoutMs = callTimeoutMs;
        this.clockMs = clockMs;
        this.target = this.controllerIds.get(0);
    }

    /** The controller the next call goes to. */
    int target() {
        return target;
    }

    /** The deadline of the call in flight, {@link Long#MAX_VALUE} when none is. */
    long deadlineMs() {
        return deadlineMs;
    }

    /** Fails the call in flight if its deadline has come. */
    void expire(long nowMs) {
        if (deadlineMs != Long.MAX_VALUE && nowMs >= deadlineMs) {
            fail(callId, "deadline exceeded", nowMs);
        }
    }

    /** Sends the call the lifecycle handed out at {@code nowMs}; its outcome goes back to the lifecycle. */
    void send(LifecycleCall call, long nowMs) {
        Invariants.check(deadlineMs == Long.MAX_VALUE, "a lifecycle call is in flight already");
        long id = ++callId;
        deadlineMs = nowMs + callTimeoutMs;
        transport.send(target, call, new LifecycleTransport.Callback() {
            @Override
            public void onRegistration(BrokerRegistrationResponse response) {
                if (end(id)) {
                    follow(response.getControllerId());
                    lifecycle.onRegistration(response, clockMs.getAsLong());
                }
            }

            @Override
            public void onHeartbeat(BrokerHeartbeatResponse response) {
                if (end(id)) {
                    follow(response.getControllerId());
                    lifecycle.onHeartbeat(response, clockMs.getAsLong());
                }
            }

            @Override
            public void onFailure(String reason) {
                fail(id, reason, clockMs.getAsLong());
            }
        });
    }

    private void fail(long id, String reason, long nowMs) {
        if (end(id)) {
            int failed = target;
            target = controllerIds.get((controllerIds.indexOf(target) + 1) % controllerIds.size());
            lifecycle.onCallFailed(reason + " from controller " + failed, nowMs);
        }
    }

    /** Ends call {@code id} if it is the one in flight; false for a stale outcome. */
    private boolean end(long id) {
        if (id != callId || deadlineMs == Long.MAX_VALUE) {
            return false;
        }
        deadlineMs = Long.MAX_VALUE;
        return true;
    }

    private void follow(int controllerId) {
        if (controllerIds.contains(controllerId)) {
            target = controllerId;
        }
    }
}
