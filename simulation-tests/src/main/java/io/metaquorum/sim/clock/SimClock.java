package io.metaquorum.sim.clock;

/**
 * Simulated global time in milliseconds since the start of a run. Only the event
 * scheduler moves it, jumping straight to the next event's time.
 *
 * <p>Invariant: never goes backwards.
 */
public final class SimClock {
    private long nowMs;

    public long nowMs() {
        return nowMs;
    }

    /** Jumps to {@code timeMs}; moving backwards is a bug in the caller. */
    public void advanceTo(long timeMs) {
        if (timeMs < nowMs) {
            throw new IllegalStateException("simulated time cannot go back from " + nowMs + " to " + timeMs);
        }
        nowMs = timeMs;
    }
}
