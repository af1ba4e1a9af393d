package io.metaquorum.node.admin;

/**
 * Where a request came from, as its transport tells: a client, or another node that forwarded
 * it (a forwarded request is never forwarded again: two nodes that each believed the other
 * the controller would bounce it between them until its deadline).
 *
 * @param forwardedBy the node that forwarded the request, or {@link #NOT_FORWARDED}
 */
public record CallOrigin(int forwardedBy) {
    public static final int NOT_FORWARDED = -1;
    public static final CallOrigin CLIENT = new CallOrigin(NOT_FORWARDED);

    public static CallOrigin forwardedBy(int nodeId) {
        return new CallOrigin(nodeId);
    }

    public boolean isForwarded() {
        return forwardedBy != NOT_FORWARDED;
    }
}
