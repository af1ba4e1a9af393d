package io.metaquorum.client.transport;

/**
 * What one attempt of an admin call carries besides its request.
 *
 * @param timeoutMs how long the attempt may wait for its answer
 * @param aclOffset the commit offset of the client's newest CreateAcls or DeleteAcls
 *     ({@link #NO_ACL_OFFSET} before any): the answering node authorizes the call only on an
 *     image that holds it, so a client's own ACL changes apply to its later calls on any node
 */
public record Attempt(long timeoutMs, long aclOffset) {
    public static final long NO_ACL_OFFSET = -1;
}
