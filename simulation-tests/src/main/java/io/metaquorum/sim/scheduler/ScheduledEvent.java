package io.metaquorum.sim.scheduler;

/**
 * One event in the simulation's single queue. Events run in order of {@code timeMs}, then
 * of {@code sequence} (the order they were scheduled in), so two events at the same
 * simulated millisecond always run in the same order.
 *
 * @param nodeId the node the event concerns, or -1 for the world
 */
public record ScheduledEvent(long timeMs, long sequence, EventKind kind, int nodeId, Runnable action)
        implements Comparable<ScheduledEvent> {
    @Override
    public int compareTo(ScheduledEvent other) {
        int byTime = Long.compare(timeMs, other.timeMs);
        return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
    }
}
