package io.metaquorum.node.admin;

import io.metaquorum.node.trace.RequestTrace;
import io.metaquorum.security.Caller;

/**
 * Where a request came from, as its transport tells: a client, or another node that forwarded
 * it (a forwarded request is never forwarded again: two nodes that each believed the other
 * the controller would bounce it between them until its deadline); and the trace its caller
 * asked for ({@link RequestTrace#OFF} when none); and who the client is, which a forwarded
 * request carries along; and the offset of the client's last ACL change, below which no node
 * may authorize its requests (read your own ACL writes).
 *
 * @param forwardedBy the node that forwarded the request, or {@link #NOT_FORWARDED}
 * @param trace       where the request's stages are marked
 * @param caller      the client's principal and host (the original client's when forwarded)
 * @param aclOffset   the commit offset of the client's last CreateAcls / DeleteAcls, -1 when none
 */
public record CallOrigin(int forwardedBy, RequestTrace trace, Caller caller, long aclOffset) {
    public static final int NOT_FORWARDED = -1;
    public static final long NO_ACL_OFFSET = -1;
    public static final CallOrigin CLIENT = new CallOrigin(NOT_FORWARDED, RequestTrace.OFF, Caller.ANONYMOUS,
            NO_ACL_OFFSET);

    public static CallOrigin forwardedBy(int nodeId) {
        return new CallOrigin(nodeId, RequestTrace.OFF, Caller.ANONYMOUS, NO_ACL_OFFSET);
    }

    /** This origin, with its stages marked on {@code requestTrace}. */
    public CallOrigin traced(RequestTrace requestTrace) {
        return new CallOrigin(forwardedBy, requestTrace, caller, aclOffset);
    }

    /** This origin, made by {@code client}. */
    public CallOrigin by(Caller client) {
        return new CallOrigin(forwardedBy, trace, client, aclOffset);
    }

    /** This origin, from a client whose last ACL change committed at {@code offset}. */
    public CallOrigin afterAclChange(long offset) {
        return new CallOrigin(forwardedBy, trace, caller, offset);
    }

    public boolean isForwarded() {
        return forwardedBy != NOT_FORWARDED;
    }
}
