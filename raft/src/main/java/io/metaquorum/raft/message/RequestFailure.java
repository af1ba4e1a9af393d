package io.metaquorum.raft.message;

/**
 * An outbound request that got no answer. {@link Reason#UNREACHABLE} is what a transport
 * reports when the connection is refused or reset (the peer process is gone): it lets a
 * follower start a pre-vote at once instead of waiting out the fetch timeout.
 */
public record RequestFailure(int peerId, long correlationId, Reason reason) implements RaftMessage {
    public enum Reason {
        /** Connection refused or reset: the peer process is gone or restarting. */
        UNREACHABLE,
        /** No answer within the deadline: a silent failure, a partition or overload. */
        TIMEOUT
    }
}
