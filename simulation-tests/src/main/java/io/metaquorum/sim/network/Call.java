package io.metaquorum.sim.network;

/**
 * One request in flight and its eventual answer: what gRPC calls a unary call. Closes
 * exactly once: with the first response delivered, or with a failure (reset, refused,
 * deadline).
 *
 * <p>Transitions: IN_FLIGHT -> AT_SERVER (request delivered) -> CLOSED; IN_FLIGHT -> CLOSED.
 */
final class Call {
    enum State { IN_FLIGHT, AT_SERVER, CLOSED }

    final long callId;
    final int caller;
    final long callerIncarnation;
    final int callee;
    /** The callee's incarnation when the request was sent; -1 if it was down. */
    final long calleeIncarnation;
    final long correlationId;
    final long sentAtMs;
    State state = State.IN_FLIGHT;

    Call(long callId, int caller, long callerIncarnation, int callee, long calleeIncarnation, long correlationId,
         long sentAtMs) {
        this.callId = callId;
        this.caller = caller;
        this.callerIncarnation = callerIncarnation;
        this.callee = callee;
        this.calleeIncarnation = calleeIncarnation;
        this.correlationId = correlationId;
        this.sentAtMs = sentAtMs;
    }

    boolean isOpen() {
        return state != State.CLOSED;
    }
}
