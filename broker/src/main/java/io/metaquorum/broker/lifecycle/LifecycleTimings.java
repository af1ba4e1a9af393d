package io.metaquorum.broker.lifecycle;

import io.metaquorum.common.invariant.Invariants;

/**
 * The broker lifecycle's timers, in ms.
 *
 * @param heartbeatIntervalMs {@code broker.heartbeat.interval.ms}: between two heartbeats
 * @param retryBackoffMs      the first wait after a failed or refused call
 * @param retryBackoffMaxMs   the wait doubles per failure in a row up to this
 */
public record LifecycleTimings(long heartbeatIntervalMs, long retryBackoffMs, long retryBackoffMaxMs) {
    public LifecycleTimings {
        Invariants.check(heartbeatIntervalMs > 0, "heartbeat interval must be > 0, got %d", heartbeatIntervalMs);
        Invariants.check(retryBackoffMs > 0 && retryBackoffMaxMs >= retryBackoffMs,
                "retry backoff must be > 0 and <= its max, got %d / %d", retryBackoffMs, retryBackoffMaxMs);
    }

    /** Waits after the {@code failures}-th failure in a row (1-based). */
    long backoffMs(int failures) {
        long wait = retryBackoffMs;
        for (int i = 1; i < failures && wait < retryBackoffMaxMs; i++) {
            wait *= 2;
        }
        return Math.min(wait, retryBackoffMaxMs);
    }
}
