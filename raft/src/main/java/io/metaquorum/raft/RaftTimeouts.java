package io.metaquorum.raft;

/**
 * The Raft timers, in milliseconds, with KRaft's names and defaults (docs/kafka-compatibility.md, "Raft timers and defaults") except
 * {@code appendLingerMs}, 0 here: natural batching instead of Kafka's 25 ms linger.
 *
 * @param electionTimeoutMs    base T of the randomized election timeout in [T, 2T)
 * @param fetchTimeoutMs       a follower without a successful fetch this long starts a pre-vote;
 *                             a leader not fetched from by a majority for 1.5x this long resigns
 * @param electionBackoffMaxMs ceiling of the exponential backoff after a lost election
 * @param appendLingerMs       extra wait to grow a batch; 0 appends what queued during the last sync
 * @param requestTimeoutMs     an outbound request unanswered this long counts as failed
 * @param retryBackoffMs       wait before resending a failed request to the same peer
 * @param fetchWaitMsMax       how long the leader parks a fetch that has nothing new (long poll)
 */
public record RaftTimeouts(int electionTimeoutMs, int fetchTimeoutMs, int electionBackoffMaxMs,
                           int appendLingerMs, int requestTimeoutMs, int retryBackoffMs, int fetchWaitMsMax) {
    public static final RaftTimeouts DEFAULTS = new RaftTimeouts(1000, 2000, 1000, 0, 2000, 20, 500);

    /** Throws {@link IllegalArgumentException} naming the first bad value. */
    public void validate() {
        requirePositive("controller.quorum.election.timeout.ms", electionTimeoutMs);
        requirePositive("controller.quorum.fetch.timeout.ms", fetchTimeoutMs);
        requirePositive("controller.quorum.election.backoff.max.ms", electionBackoffMaxMs);
        requirePositive("controller.quorum.request.timeout.ms", requestTimeoutMs);
        requirePositive("controller.quorum.retry.backoff.ms", retryBackoffMs);
        requirePositive("controller.quorum.fetch.wait.max.ms", fetchWaitMsMax);
        if (appendLingerMs < 0) {
            throw new IllegalArgumentException("controller.quorum.append.linger.ms must be >= 0, got " + appendLingerMs);
        }
        if (fetchWaitMsMax >= fetchTimeoutMs) {
            throw new IllegalArgumentException("controller.quorum.fetch.wait.max.ms (" + fetchWaitMsMax
                    + ") must be below controller.quorum.fetch.timeout.ms (" + fetchTimeoutMs + ")");
        }
    }

    private static void requirePositive(String key, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be > 0, got " + value);
        }
    }
}
