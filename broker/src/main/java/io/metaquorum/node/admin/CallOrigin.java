package io.metaquorum.node.admin;

import io.metaquorum.node.trace.RequestTrace;

/**
 * Where a request came from, as its transport tells: a client, or another node that forwarded
 * it (a forwarded request is never forwarded again: two nodes that each believed the other
 * the controller would bounce it between them until its deadline); and the trace its caller
 * asked for ({@link RequestTrace#OFF} when none).
 *
 * @param forwardedBy the node that forwarded the request, or {@link #NOT_FORWARDED}
 * @param trace       where the request's stages are marked
 */
public record CallOrigin(int forwardedBy, RequestTrace trace) {
    public static final int NOT_FORWARDED = -1;
    public static final CallOrigin CLIENT = new CallOrigin(NOT_FORWARDED, RequestTrace.OFF);

    public static CallOrigin forwardedBy(int nodeId) {
        return new CallOrigin(nodeId, RequestTrace.OFF);
    }

    /** This origin, with its stages marked on {@code requestTrace}. */
    public CallOrigin traced(RequestTrace requestTrace) {
        return new CallOrigin(forwardedBy, requestTrace);
    }

    public boolean isForwarded() {
        return forwardedBy != NOT_FORWARDED;
    }
}
