package io.metaquorum.node.admin;

import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.security.Caller;

/**
 * Where a request came from, as its transport tells: a client, or another node that forwarded
 * it (a forwarded request is never forwarded again: two nodes that each believed the other
 * the controller would bounce it between them until its deadline); and the trace its caller
 * asked for ({@link RequestTrace#OFF} when none); and who the client is, which a forwarded
 * request carries along.
 *
 * @param forwardedBy the node that forwarded the request, or {@link #NOT_FORWARDED}
 * @param trace       where the request's stages are marked
 * @param caller      the client's principal and host (the original client's when forwarded)
 */
public record CallOrigin(int forwardedBy, RequestTrace trace, Caller caller) {
    public static final int NOT_FORWARDED = -1;
    public static final CallOrigin CLIENT = new CallOrigin(NOT_FORWARDED, RequestTrace.OFF, Caller.ANONYMOUS);

    public static CallOrigin forwardedBy(int nodeId) {
        return new CallOrigin(nodeId, RequestTrace.OFF, Caller.ANONYMOUS);
    }

    /** This origin, with its stages marked on {@code requestTrace}. */
    public CallOrigin traced(RequestTrace requestTrace) {
        return new CallOrigin(forwardedBy, requestTrace, caller);
    }

    /** This origin, made by {@code client}. */
    public CallOrigin by(Caller client) {
        return new CallOrigin(forwardedBy, trace, client);
    }

    public boolean isForwarded() {
        return forwardedBy != NOT_FORWARDED;
    }
}
