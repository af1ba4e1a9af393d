package io.metaquorum.server.status;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The leader's commit latency over the last {@link #SECONDS} seconds, one bucket per wall-clock
 * second (count, sum and maximum), for the status page's chart (docs/metrics.md#status-page).
 * One thread records (raft's driver, once per committed batch of the leader's epoch), with no
 * lock and no allocation; any thread reads. A read that races a record may see that one
 * batch half counted, which a chart of per-second means does not show.
 */
public final class CommitLatencySeconds {
    /** Seconds kept. */
    public static final int SECONDS = 120;
    private static final long MS_PER_SECOND = 1_000;

    /** The second (epoch ms / 1000) each bucket holds, -1 when it never held one. */
    private final AtomicLongArray second = new AtomicLongArray(SECONDS);
    private final AtomicLongArray count = new AtomicLongArray(SECONDS);
    private final AtomicLongArray sumMs = new AtomicLongArray(SECONDS);
    private final AtomicLongArray maxMs = new AtomicLongArray(SECONDS);

    /** One second of the chart: batches committed in it, and their mean and largest latency. */
    public record Second(long atMs, long count, double meanMs, long maxMs) {
    }

    public CommitLatencySeconds() {
        for (int i = 0; i < SECONDS; i++) {
            second.set(i, -1);
        }
    }

    /** Counts one batch committed at {@code nowMs} (wall clock) that took {@code latencyMs}. */
    public void record(long nowMs, long latencyMs) {
        long now = nowMs / MS_PER_SECOND;
        int i = (int) Math.floorMod(now, (long) SECONDS);
        if (second.get(i) != now) {
            count.set(i, 0);
            sumMs.set(i, 0);
            maxMs.set(i, 0);
            second.set(i, now);
        }
        count.set(i, count.get(i) + 1);
        sumMs.set(i, sumMs.get(i) + latencyMs);
        if (latencyMs > maxMs.get(i)) {
            maxMs.set(i, latencyMs);
        }
    }

    /**
     * The seconds before {@code nowMs}'s second, oldest first, within the last {@link #SECONDS}
     * and with at least one commit; the current second is left out while it fills.
     */
    public List<Second> before(long nowMs) {
        long now = nowMs / MS_PER_SECOND;
        List<Second> seconds = new ArrayList<>();
        for (long s = now - SECONDS + 1; s < now; s++) {
            int i = (int) Math.floorMod(s, (long) SECONDS);
            long n = count.get(i);
            if (second.get(i) == s && n > 0) {
                seconds.add(new Second(s * MS_PER_SECOND, n, (double) sumMs.get(i) / n, maxMs.get(i)));
            }
        }
        return seconds;
    }
}
