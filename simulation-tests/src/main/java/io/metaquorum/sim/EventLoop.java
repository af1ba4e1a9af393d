package io.metaquorum.sim;

import io.metaquorum.sim.trace.TraceHash;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.invariant.ConvergenceCheck;
import io.metaquorum.sim.invariant.TimeAdvanceCheck;
import io.metaquorum.sim.scheduler.ScheduledEvent;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Runs a {@link World}'s events one at a time and, after each, mixes what changed into the
 * trace and runs the invariants on it. Only a node's own driver events run its core, so
 * after those only that node is observed; deliveries and client appends only queue input;
 * faults and housekeeping may touch any node, so all are observed.
 *
 * <p>Bounds: a run whose simulated time stands still for {@link #STALLED_EVENTS_MAX} events
 * (a busy loop) fails ({@link TimeAdvanceCheck}); waiting for a condition is bounded in simulated time and events.
 */
final class EventLoop {
    static final long STALLED_EVENTS_MAX = 200_000;
    static final long WAIT_EVENTS_MAX = 4_000_000;

    private final World world;
    private final EventObserver observer;
    private final TimeAdvanceCheck timeAdvances = new TimeAdvanceCheck(STALLED_EVENTS_MAX);

    EventLoop(World world, EventObserver observer) {
        this.world = world;
        this.observer = observer;
        world.network().setDeliveryObserver(observer);
    }

    /** Runs one event and the checks after it; false when no event is left. */
    boolean step() {
        ScheduledEvent event = world.scheduler().runNext();
        if (event == null) {
            return false;
        }
        TraceHash trace = world.trace();
        trace.mix(event.timeMs());
        trace.mix(event.kind().ordinal());
        trace.mix(event.nodeId());
        observer.afterEvent(world.scheduler().executedCount(), event, world.cluster());
        switch (event.kind()) {
            case NODE_STEP, NODE_WAKE, DISK_SYNC -> observeOne(event.nodeId());
            case DELIVER, CLIENT -> world.checker().afterEvent();
            default -> observeAll();
        }
        if (world.system() != null) {
            world.system().afterEvent();
        }
        timeAdvances.observe(event.timeMs());
        return true;
    }

    /** Steps until {@code condition} holds; fails the run after {@code boundMs} of simulated time. */
    void runUntil(BooleanSupplier condition, long boundMs, String what) {
        long startMs = world.scheduler().nowMs();
        long startEvents = world.scheduler().executedCount();
        while (!condition.getAsBoolean()) {
            long elapsed = world.scheduler().nowMs() - startMs;
            long events = world.scheduler().executedCount() - startEvents;
            if (elapsed > boundMs || events > WAIT_EVENTS_MAX || !step()) {
                throw new CheckFailure("liveness", "not " + what + " within " + elapsed + " ms (" + events
                        + " events)");
            }
        }
    }

    /** Steps for {@code durationMs} of simulated time. */
    void runFor(long durationMs) {
        long until = world.scheduler().nowMs() + durationMs;
        while (world.scheduler().nextEventTimeMs() <= until && step()) {
            // Each step runs the invariants.
        }
    }

    /** Liveness: steps until the cluster converges ({@link ConvergenceCheck}) or the bound passes. */
    void awaitConvergence(Set<Integer> expectedUp, long sinceMs, long boundMs, String stage) {
        long startEvents = world.scheduler().executedCount();
        while (true) {
            Supplier<String> why = ConvergenceCheck.notConverged(world.cluster(), expectedUp,
                    world.latestProgressMs(), sinceMs);
            if (why == null) {
                return;
            }
            long elapsed = world.scheduler().nowMs() - sinceMs;
            long events = world.scheduler().executedCount() - startEvents;
            if (elapsed > boundMs || events > WAIT_EVENTS_MAX || !step()) {
                throw new CheckFailure("liveness", "not converged " + elapsed + " ms (" + events + " events) after"
                        + " healing " + stage + ": " + why.get());
            }
        }
    }

    void observeAll() {
        for (int i = 0; i < world.cluster().nodes().size(); i++) {
            observeNode(i);
        }
        world.checker().afterEvent();
    }

    private void observeOne(int nodeId) {
        observeNode(nodeId - 1);
        world.checker().afterEvent();
    }

    /** Mixes one node's state into the trace and runs the checks on it; {@code index} is its position. */
    private void observeNode(int index) {
        long now = world.scheduler().nowMs();
        SimNode node = world.cluster().nodes().get(index);
        if (!node.isRunning()) {
            world.trace().mix(-1);
            if (world.timeline() != null) {
                world.timeline().observe(index, null, now);
            }
            return;
        }
        RaftStatus status = node.status();
        mixStatus(world.trace(), status);
        world.checker().observe(node, status, now);
        if (world.timeline() != null) {
            world.timeline().observe(index, status, now);
        }
    }

    private static void mixStatus(TraceHash trace, RaftStatus status) {
        trace.mix(status.role().ordinal());
        trace.mix(status.epoch());
        trace.mix(status.leaderId());
        trace.mix(status.votedId());
        trace.mix(status.highWatermark());
        trace.mix(status.logStartOffset());
        trace.mix(status.logEndOffset());
        trace.mix(status.flushedEndOffset());
        trace.mix(status.appliedOffset());
    }
}
