package io.metaquorum.raft.transport.grpc.logging;

/**
 * A refused connection's reason, with a detail (the root cause, one line) where the reason
 * alone does not say enough.
 */
public record Refusal(RefusalReason reason, String detail) {
    public Refusal(RefusalReason reason) {
        this(reason, "");
    }

    /** The reason as it appears in the log line. */
    public String text() {
        return detail.isEmpty() ? reason.text() : reason.text() + " (" + detail + ")";
    }
}
