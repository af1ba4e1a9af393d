package io.metaquorum.raft.loop;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.RaftLog;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The one deterministic sequence that drives a {@link RaftCore}, run by the production driver
 * thread ({@code RaftDriver}) and by the simulator's node process alike, so the simulation
 * runs exactly what production runs. It starts no thread, reads no clock and keeps no queue:
 * the caller hands in the time and the sources to drain, syncs the log when asked, and waits
 * (parks, or lets simulated time pass) between passes. One pass:
 * <pre>
 *   begin a requested graceful shutdown
 *   run the queued tasks (appends, snapshot registrations, ...), at most TASKS_PER_PASS_MAX
 *   core.handle each inbound message, at most MESSAGES_PER_PASS_MAX
 *   deadline = core.poll(now); send core.takeOutbound()  // before the flush: nothing claims durability
 *   if log.hasUnflushed():                               // one sync per drained batch (group commit)
 *       the caller syncs: log.flush() may take time, inputs queue meanwhile
 *       deadline = core.poll(now'); send core.takeOutbound()
 *   publish core.status()
 *   wait until the deadline (sooner if anything is queued)
 * </pre>
 * The commits and snapshots reach the state machine ({@link RaftListener}) from inside
 * {@code core.poll}, on the caller's thread.
 *
 * <p>Invariant: between {@link #runPass} and {@link #completeFlush} (while {@link #awaitsFlush()})
 * no other pass runs.
 */
public final class DriverLoop {
    /** Messages handled per pass before the core is polled (and the log flushed). */
    public static final int MESSAGES_PER_PASS_MAX = 4096;
    /** Tasks run per pass; tasks queued meanwhile wait for the next pass. */
    public static final int TASKS_PER_PASS_MAX = 1 << 14;

    /** Where a pass takes its inputs from: the next one, or null when none is waiting. */
    @FunctionalInterface
    public interface Source<T> {
        T poll();
    }

    /** Work for the driver between two polls, given the core and the time of the pass. */
    @FunctionalInterface
    public interface CoreTask {
        void run(RaftCore core, long nowMs);
    }

    private final RaftCore core;
    private final RaftLog log;
    private final Consumer<RaftMessage> outbound;
    private final Consumer<RaftStatus> statusSink;
    /** The graceful-shutdown timeout asked for; -1 while none is. */
    private long shutdownTimeoutMs = -1;
    /** When a begun graceful shutdown stops anyway; -1 before it begins. */
    private long shutdownDeadlineMs = -1;
    private boolean flushAwaited;
    private long lastNowMs = Long.MIN_VALUE;

    /**
     * Builds the core, which reads the log and the election state, and publishes its status.
     *
     * @param outbound   sends a message the core produced (the transport)
     * @param statusSink receives the core's status after every pass
     */
    public DriverLoop(RaftConfig config, RaftLog log, QuorumStateStore stateStore, RandomGenerator random,
                      RaftListener listener, long nowMs, Consumer<RaftMessage> outbound,
                      Consumer<RaftStatus> statusSink) {
        this.log = log;
        this.outbound = outbound;
        this.statusSink = statusSink;
        this.lastNowMs = nowMs;
        this.core = new RaftCore(config, log, stateStore, random, listener, nowMs);
        statusSink.accept(core.status());
    }

    /** The core, for reading its state between passes (its status, the checkers of a simulation). */
    public RaftCore core() {
        return core;
    }

    /**
     * Asks for a graceful shutdown: the next pass begins it (a leader hands over) and it is
     * over once {@link #isShutdownOver()}, at the latest {@code timeoutMs} after it began. Later
     * requests change nothing.
     */
    public void requestShutdown(long timeoutMs) {
        Invariants.check(timeoutMs >= 0, "shutdown timeout %d ms < 0", timeoutMs);
        if (shutdownTimeoutMs < 0) {
            shutdownTimeoutMs = timeoutMs;
        }
    }

    /** Whether a pass has begun the requested shutdown. */
    public boolean isShutdownBegun() {
        return shutdownDeadlineMs >= 0;
    }

    /** True once a begun shutdown may stop: a successor leads, or the timeout passed. */
    public boolean isShutdownOver() {
        return shutdownDeadlineMs >= 0 && (core.isShutdownComplete(lastNowMs) || lastNowMs >= shutdownDeadlineMs);
    }

    /** True once a begun shutdown is over because a successor leads (not by the timeout). */
    public boolean isShutdownComplete() {
        return core.isShutdownComplete(lastNowMs);
    }

    /** Whether the last pass left records to sync: the caller flushes, then calls {@link #completeFlush}. */
    public boolean awaitsFlush() {
        return flushAwaited;
    }

    /**
     * Runs a pass up to the flush at {@code nowMs} (never earlier than the last). Returns the
     * time of the next pass (absolute ms): the core's next deadline, or the shutdown's if sooner;
     * if {@link #awaitsFlush()}, only a hint until {@link #completeFlush} returns the real one.
     */
    public long runPass(long nowMs, Source<CoreTask> tasks, Source<RaftMessage> inbound) {
        Invariants.check(!flushAwaited, "a pass began before the previous one's flush completed");
        long now = advanceTo(nowMs);
        if (shutdownTimeoutMs >= 0 && shutdownDeadlineMs < 0) {
            shutdownDeadlineMs = now + shutdownTimeoutMs;
            core.beginShutdown(now);
        }
        runTasks(tasks, now);
        handleInbound(inbound, now);
        long deadlineMs = pollAndSend(now);
        if (log.hasUnflushed()) {
            flushAwaited = true;
            return deadlineMs;
        }
        return finishPass(deadlineMs);
    }

    /** Syncs the log the pass left unflushed, at {@code nowMs} (when the sync ended), and finishes the pass. */
    public long completeFlush(long nowMs) {
        Invariants.check(flushAwaited, "no pass awaits a flush");
        flushAwaited = false;
        log.flush();
        return finishPass(pollAndSend(advanceTo(nowMs)));
    }

    private long advanceTo(long nowMs) {
        lastNowMs = Math.max(lastNowMs, nowMs);
        return lastNowMs;
    }

    private void runTasks(Source<CoreTask> tasks, long now) {
        for (int i = 0; i < TASKS_PER_PASS_MAX; i++) {
            CoreTask task = tasks.poll();
            if (task == null) {
                return;
            }
            task.run(core, now);
        }
    }

    private void handleInbound(Source<RaftMessage> inbound, long now) {
        for (int i = 0; i < MESSAGES_PER_PASS_MAX; i++) {
            RaftMessage message = inbound.poll();
            if (message == null) {
                return;
            }
            core.handle(message, now);
        }
    }

    private long pollAndSend(long now) {
        long deadlineMs = core.poll(now);
        for (RaftMessage message : core.takeOutbound()) {
            outbound.accept(message);
        }
        return deadlineMs;
    }

    private long finishPass(long deadlineMs) {
        statusSink.accept(core.status());
        if (shutdownDeadlineMs >= 0) {
            deadlineMs = Math.min(deadlineMs, shutdownDeadlineMs);
        }
        // Records the second poll wrote (none today) must not wait for a timer to be synced.
        return log.hasUnflushed() ? lastNowMs : deadlineMs;
    }
}
