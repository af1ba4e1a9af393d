package io.metaquorum.sim.scheduler;

import io.metaquorum.sim.clock.SimClock;
import java.util.PriorityQueue;

/**
 * The one event queue of a simulation: a priority queue ordered by time, then by the
 * sequence number given at scheduling. Running an event first jumps the {@link SimClock}
 * to the event's time; nothing else moves simulated time, so idle periods cost nothing.
 *
 * <p>Invariants: an event is never scheduled in the past; {@link #executedCount()} counts
 * every event run; the queue never holds more than {@code pendingEventsMax} events (a
 * runaway producer fails fast instead of exhausting memory).
 */
public final class EventScheduler {
    private final SimClock clock;
    private final int pendingEventsMax;
    private final PriorityQueue<ScheduledEvent> queue = new PriorityQueue<>();
    private long nextSequence;
    private long executedCount;

    public EventScheduler(SimClock clock, int pendingEventsMax) {
        this.clock = clock;
        this.pendingEventsMax = pendingEventsMax;
    }

    public long nowMs() {
        return clock.nowMs();
    }

    /** Schedules {@code action} at {@code timeMs}, which must not be in the past. */
    public ScheduledEvent schedule(long timeMs, EventKind kind, int nodeId, Runnable action) {
        if (timeMs < clock.nowMs()) {
            throw new IllegalArgumentException("event " + kind + " scheduled at " + timeMs
                    + " ms, before now (" + clock.nowMs() + " ms)");
        }
        if (queue.size() >= pendingEventsMax) {
            throw new IllegalStateException("more than " + pendingEventsMax + " pending events");
        }
        ScheduledEvent event = new ScheduledEvent(timeMs, nextSequence++, kind, nodeId, action);
        queue.add(event);
        return event;
    }

    /** Schedules {@code action} {@code delayMs} from now. */
    public ScheduledEvent scheduleAfter(long delayMs, EventKind kind, int nodeId, Runnable action) {
        return schedule(clock.nowMs() + Math.max(0, delayMs), kind, nodeId, action);
    }

    /** Runs the earliest event, after moving the clock to its time; null when none is left. */
    public ScheduledEvent runNext() {
        ScheduledEvent event = queue.poll();
        if (event == null) {
            return null;
        }
        clock.advanceTo(event.timeMs());
        executedCount++;
        event.action().run();
        return event;
    }

    /** The time of the earliest pending event, or {@link Long#MAX_VALUE} when none. */
    public long nextEventTimeMs() {
        ScheduledEvent head = queue.peek();
        return head == null ? Long.MAX_VALUE : head.timeMs();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    public long executedCount() {
        return executedCount;
    }
}
