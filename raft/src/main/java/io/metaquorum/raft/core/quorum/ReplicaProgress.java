package io.metaquorum.raft.core.quorum;

import io.metaquorum.raft.ReplicaKey;

/**
 * What a leader knows of one replica from its fetches (KIP-836 timestamps).
 * Invariant: {@code endOffset} only grows within a leader's epoch, except that a replica
 * which truncated reports a smaller offset once and is then believed.
 */
public final class ReplicaProgress {
    private final ReplicaKey key;
    private long endOffset = -1;
    private long lastFetchMs = -1;
    private long lastCaughtUpMs = -1;
    private long leaderEndOffsetAtLastFetch = -1;
    /** The high watermark in the last fetch answer sent to this replica; -1 before any. */
    private long highWatermarkSent = -1;

    public ReplicaProgress(ReplicaKey key) {
        this.key = key;
    }

    public int replicaId() {
        return key.id();
    }

    public ReplicaKey key() {
        return key;
    }

    public long endOffset() {
        return endOffset;
    }

    public long lastFetchMs() {
        return lastFetchMs;
    }

    public long lastCaughtUpMs() {
        return lastCaughtUpMs;
    }

    /**
     * Records a valid fetch at {@code fetchOffset}. A replica is caught up when it fetches
     * at the leader's end offset, or at the end offset the leader had at its previous fetch
     * (then it was caught up as of that previous fetch).
     */
    public void onFetch(long fetchOffset, long leaderEndOffset, long nowMs) {
        if (fetchOffset >= leaderEndOffset) {
            lastCaughtUpMs = nowMs;
        } else if (leaderEndOffsetAtLastFetch >= 0 && fetchOffset >= leaderEndOffsetAtLastFetch) {
            lastCaughtUpMs = Math.max(lastCaughtUpMs, lastFetchMs);
        }
        endOffset = fetchOffset;
        lastFetchMs = nowMs;
        leaderEndOffsetAtLastFetch = leaderEndOffset;
    }

    /** The high watermark the last fetch answer told this replica. */
    public long highWatermarkSent() {
        return highWatermarkSent;
    }

    /** Records the high watermark of a fetch answer sent to this replica. */
    public void onHighWatermarkSent(long highWatermark) {
        highWatermarkSent = highWatermark;
    }

    /** Records that the replica was heard from (FetchSnapshot) without an offset. */
    public void onContact(long nowMs) {
        lastFetchMs = nowMs;
    }

    /** The leader's own progress: it is always caught up with itself. */
    public void onLocalAppend(long flushedEndOffset, long nowMs) {
        endOffset = flushedEndOffset;
        lastFetchMs = nowMs;
        lastCaughtUpMs = nowMs;
    }
}
