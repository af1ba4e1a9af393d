package io.metaquorum.client;

import io.metaquorum.client.transport.Attempt;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The highest commit offset of a client's CreateAcls and DeleteAcls answers, which every later
 * call of that client sends (the {@code mq-acl-offset} header): a node behind it answers
 * AUTHORIZER_NOT_READY, and the call is retried, instead of authorizing on ACLs from before
 * the client's own change. Only rises, whatever order concurrent answers arrive in.
 */
final class AclWriteOffset {
    private final AtomicLong offset = new AtomicLong(Attempt.NO_ACL_OFFSET);

    /** A write's {@code commit_offset}; -1 (the write failed whole) changes nothing. */
    void committed(long commitOffset) {
        offset.accumulateAndGet(commitOffset, Math::max);
    }

    long offset() {
        return offset.get();
    }
}
