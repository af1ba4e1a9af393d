package io.metaquorum.bench;

import java.util.concurrent.TimeUnit;

/**
 * Paces the raft-append load: how many records to append now, and when each chunk was
 * due. At a fixed rate a chunk is stamped with the time its first record was due, not the
 * time it was handed over, so a generator that falls behind (starved of CPU) shows up as
 * latency instead of hiding it. The generator wakes about {@link #TICKS_PER_S} times a
 * second at most, so at high rates it costs little CPU, and at low rates it wakes exactly
 * when the next record is due.
 */
final class LoadPacer {
    /** Records in flight (appended, not committed) when offering as fast as possible. */
    static final long UNBOUNDED_INFLIGHT_RECORDS_MAX = 400_000;
    static final int CHUNK_RECORDS_MAX = 1_000;
    private static final long TICKS_PER_S = 4_000;
    private static final long IDLE_PARK_NANOS = 50_000;

    private final long throughput;
    private final long startNanos;
    private final long minChunk;

    LoadPacer(long throughput, long startNanos) {
        this.throughput = throughput;
        this.startNanos = startNanos;
        this.minChunk = Math.max(1, throughput / TICKS_PER_S);
    }

    /**
     * Records to append now, given those already offered (and not refused) and, unbounded,
     * those in flight; 0 means park for {@link #parkNanos}.
     */
    int nextChunk(long offered, long inflight, long nowNanos) {
        if (throughput == 0) {
            return inflight >= UNBOUNDED_INFLIGHT_RECORDS_MAX ? 0 : CHUNK_RECORDS_MAX;
        }
        long due = (long) (throughput * ((nowNanos - startNanos) / 1e9)) - offered;
        return due < minChunk ? 0 : (int) Math.min(due, CHUNK_RECORDS_MAX);
    }

    /**
     * When the record after {@code offered} was due (the k-th, from 0, is due (k + 1) /
     * throughput seconds after the start); {@code nowNanos} when unbounded.
     */
    long dueNanos(long offered, long nowNanos) {
        if (throughput == 0) {
            return nowNanos;
        }
        return startNanos + (long) ((offered + 1) * (1e9 / throughput));
    }

    /** How long to park when {@link #nextChunk} answered 0. */
    long parkNanos(long offered, long nowNanos) {
        if (throughput == 0) {
            return IDLE_PARK_NANOS;
        }
        long wake = dueNanos(offered + minChunk - 1, nowNanos);
        return Math.max(1, Math.min(wake - nowNanos, TimeUnit.MILLISECONDS.toNanos(1)));
    }
}
