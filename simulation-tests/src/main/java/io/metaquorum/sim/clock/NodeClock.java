package io.metaquorum.sim.clock;

/**
 * One node's local clock: what {@code nowMs} the node's code sees for a given global
 * simulated time. Fault model: a constant skew (the clocks of two nodes disagree), a drift
 * (the clock runs fast or slow by a rate in parts per million, so timers fire early or
 * late relative to other nodes) and forward jumps (a VM pause or an NTP step forward).
 * A local clock never goes backwards: the driver reads a monotonic clock.
 *
 * <p>The clock is a line through an anchor: {@code local(g) = anchorLocal + (g - anchorGlobal)
 * * (1 + driftPpm / 10^6)}, re-anchored at each change so it stays continuous.
 *
 * <p>Invariants: {@code driftPpm} lies in ({@code -DRIFT_PPM_LIMIT}, {@code DRIFT_PPM_LIMIT});
 * {@code local} is non-decreasing in {@code g}.
 */
public final class NodeClock {
    /** A plausible wall-clock start, so timestamps in records look like real ones. */
    public static final long EPOCH_BASE_MS = 1_700_000_000_000L;
    public static final int DRIFT_PPM_LIMIT = 500_000;
    private static final long PPM = 1_000_000L;

    private long anchorGlobalMs;
    private long anchorLocalMs;
    private int driftPpm;

    public NodeClock(long skewMs, int driftPpm) {
        this.anchorGlobalMs = 0;
        this.anchorLocalMs = EPOCH_BASE_MS + skewMs;
        this.driftPpm = requireDrift(driftPpm);
    }

    /** The local time at global time {@code globalMs}. */
    public long localMs(long globalMs) {
        long elapsed = globalMs - anchorGlobalMs;
        return anchorLocalMs + elapsed + Math.floorDiv(elapsed * driftPpm, PPM);
    }

    /**
     * The earliest global time at which the local clock reads {@code localDeadlineMs} or more
     * (never before {@code nowGlobalMs}); {@link Long#MAX_VALUE} stays "never".
     */
    public long globalMsAt(long localDeadlineMs, long nowGlobalMs) {
        if (localDeadlineMs == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        if (localMs(nowGlobalMs) >= localDeadlineMs) {
            return nowGlobalMs;
        }
        long localElapsed = localDeadlineMs - anchorLocalMs;
        long guess = anchorGlobalMs + Math.floorDiv(localElapsed * PPM, PPM + driftPpm);
        // The division rounds; step to the exact first millisecond (a few steps at most).
        for (int step = 0; step < 8 && localMs(guess) < localDeadlineMs; step++) {
            guess++;
        }
        for (int step = 0; step < 8 && localMs(guess - 1) >= localDeadlineMs; step++) {
            guess--;
        }
        return Math.max(guess, nowGlobalMs);
    }

    /** Changes the rate from {@code globalMs} on, continuously. */
    public void setDriftPpm(int newDriftPpm, long globalMs) {
        reanchor(globalMs);
        driftPpm = requireDrift(newDriftPpm);
    }

    /** Steps the clock forward by {@code jumpMs} at {@code globalMs}. */
    public void jumpForward(long jumpMs, long globalMs) {
        if (jumpMs < 0) {
            throw new IllegalArgumentException("a clock jump must be forward, got " + jumpMs + " ms");
        }
        reanchor(globalMs);
        anchorLocalMs += jumpMs;
    }

    private void reanchor(long globalMs) {
        anchorLocalMs = localMs(globalMs);
        anchorGlobalMs = globalMs;
    }

    private static int requireDrift(int driftPpm) {
        if (driftPpm <= -DRIFT_PPM_LIMIT || driftPpm >= DRIFT_PPM_LIMIT) {
            throw new IllegalArgumentException("drift must lie within +-" + DRIFT_PPM_LIMIT + " ppm, got " + driftPpm);
        }
        return driftPpm;
    }
}
