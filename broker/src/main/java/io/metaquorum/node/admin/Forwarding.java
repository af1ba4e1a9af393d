package io.metaquorum.node.admin;

import java.util.function.Consumer;

/**
 * How a node that is not the active controller hands a write to the controller voter that
 * is, and gets its answer back. The server's goes over gRPC; the simulator's over its network.
 * The receiver sees the call as forwarded ({@link CallOrigin}) and never forwards it again.
 */
public interface Forwarding {
    /** Whether a request could be forwarded to {@code controllerId} (known, and not this node). */
    boolean canForwardTo(int controllerId);

    /**
     * Forwards {@code request} to {@code controllerId}, with a deadline of the forwarding
     * timeout plus {@code waitMs} (what the request itself may wait on the controller); exactly
     * one of {@code onAnswer} or {@code onFailure} is called, once. The controller learns the
     * client's identity from {@code origin}; a trace that is on asks the controller for its own
     * trace, added to the origin's trace with the answer.
     */
    <Q, R> void forward(int controllerId, AdminMethod<Q, R> method, Q request, long waitMs, CallOrigin origin,
                        Consumer<R> onAnswer, Consumer<Throwable> onFailure);
}
