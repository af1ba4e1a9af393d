package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
/**
 * Simulated time moves on: a run whose events all fall at one simulated millisecond for
 * more than {@code stalledEventsMax} events in a row is a busy loop (something reschedules
 * itself without waiting), which a real node would spin in forever. Fed the time of every
 * event in the order they run.
 */
public final class TimeAdvanceCheck {
    public static final String NAME = "time-advances";

    private final long stalledEventsMax;
    private long lastEventTimeMs = -1;
    private long eventsAtSameTime;

    public TimeAdvanceCheck(long stalledEventsMax) {
        this.stalledEventsMax = stalledEventsMax;
    }

    public void observe(long eventTimeMs) {
        if (eventTimeMs == lastEventTimeMs) {
            if (++eventsAtSameTime > stalledEventsMax) {
                throw new CheckFailure(NAME, stalledEventsMax + " events at simulated time " + eventTimeMs
                        + " ms without time moving on: a busy loop");
            }
        } else {
            lastEventTimeMs = eventTimeMs;
            eventsAtSameTime = 0;
        }
    }
}
