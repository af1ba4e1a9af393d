package io.metaquorum.sim.cluster;

import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.raft.core.AppendResult;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.core.RaftStatus;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.StorageException;
import io.metaquorum.sim.invariant.CheckFailure;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.storage.LogFaultMode;
import io.metaquorum.sim.storage.SimQuorumStateStore;
import io.metaquorum.sim.storage.SimRaftLog;
import io.metaquorum.sim.workload.AppendTracker;
import io.metaquorum.sim.workload.StateMachineListener;
import java.util.ArrayDeque;
import java.util.Random;

/**
 * One incarnation of a node's process: the production {@link RaftCore} and the simulated
 * driver that runs it exactly as {@code RaftCore}'s contract says (handle inbound, poll,
 * send, and if anything is unflushed: sync, poll, send). A sync takes simulated time, during
 * which the driver is blocked and inputs queue up, so a crash can fall between sending and
 * syncing.
 *
 * <p>Paused ({@link #pause()}, SIGSTOP): the driver does nothing, not even for its timers or a
 * finished sync; what reaches the process waits in its inbox (the socket buffers, bounded by
 * {@link #PAUSED_INBOX_MAX}: beyond it messages are dropped and their calls time out) and
 * it sends nothing. Resumed ({@link #resume()}), it runs at once: its clock reads the time that
 * passed, so every deadline that fell in the pause is overdue together.
 *
 * <p>Once killed ({@link #kill()}) every event still scheduled for it does nothing.
 * Exceptions from the core: a storage error stops the node (the production fault handler
 * would halt the process); a core invariant or any other exception fails the run.
 */
final class NodeProcess {
    /** Inputs a paused process's socket buffers hold; more are dropped. */
    static final int PAUSED_INBOX_MAX = 10_000;

    private final SimNode node;
    private final RaftCore core;
    private final SimRaftLog log;
    private final StateMachineListener listener;
    private final AppendTracker appends;
    private final ArrayDeque<NodeInput> inbox = new ArrayDeque<>();
    private boolean alive = true;
    private boolean syncing;
    private boolean stepScheduled;
    private boolean wakePending;
    private boolean shuttingDown;
    private boolean paused;
    /** A sync finished while paused: the driver continues after it once resumed. */
    private boolean syncDoneWhilePaused;
    /** Local time by which a graceful shutdown stops anyway, as the production driver bounds it. */
    private long shutdownDeadlineMs;
    private long wakeAtMs;
    private long wakeToken;
    private long lastSnapshotOffset;

    NodeProcess(SimNode node, AppendTracker appends) {
        this.node = node;
        this.appends = appends;
        NodeSetup setup = node.setup();
        this.log = SimRaftLog.open(node.disk(), setup.logMode(), setup.logObserver());
        this.listener = new StateMachineListener(node.nodeId(), setup.model(), setup.commitSink());
        SimQuorumStateStore store = new SimQuorumStateStore(node.disk(), setup.persistVotes());
        this.core = new RaftCore(setup.configFor(node.nodeId()), log, store, new Random(node.random().nextLong()),
                listener, localNowMs());
        this.lastSnapshotOffset = log.startOffset();
        if (setup.logMode() == LogFaultMode.ACK_BEFORE_SYNC) {
            scheduleWriteback();
        }
        requestStep();
    }

    RaftStatus status() {
        return core.status();
    }

    SimRaftLog log() {
        return log;
    }

    StateMachineListener listener() {
        return listener;
    }

    /** Makes the driver loop once soon, e.g. after its clock jumped past its deadlines. */
    void nudge() {
        requestStep();
    }

    void submit(NodeInput input) {
        if (paused && inbox.size() >= PAUSED_INBOX_MAX) {
            return;
        }
        inbox.add(input);
        requestStep();
    }

    boolean isPaused() {
        return paused;
    }

    /** SIGSTOP: the driver stops; nothing runs until {@link #resume()}. */
    void pause() {
        paused = true;
    }

    /** SIGCONT: the driver runs again at once, seeing the time that passed. */
    void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        if (syncDoneWhilePaused) {
            syncDoneWhilePaused = false;
            node.scheduler().schedule(node.scheduler().nowMs(), EventKind.DISK_SYNC, node.nodeId(),
                    () -> guard(this::syncDone));
        } else {
            requestStep();
        }
    }

    /** The process dies now; returns true if unsynced writes were lost. */
    boolean kill() {
        alive = false;
        inbox.clear();
        return log.crash();
    }

    /** A graceful stop's last act: sync what is pending, then stop. */
    void syncAndStop() {
        alive = false;
        inbox.clear();
        if (log.hasUnflushed()) {
            log.flush();
        }
        log.close();
    }

    private long localNowMs() {
        return node.clock().localMs(node.scheduler().nowMs());
    }

    private void requestStep() {
        if (alive && !paused && !stepScheduled && !syncing) {
            stepScheduled = true;
            node.scheduler().schedule(node.scheduler().nowMs(), EventKind.NODE_STEP, node.nodeId(),
                    () -> guard(this::step));
        }
    }

    private void step() {
        stepScheduled = false;
        if (!alive || syncing || paused) {
            return;
        }
        long now = localNowMs();
        while (!inbox.isEmpty() && alive) {
            take(inbox.poll(), now);
        }
        long deadline = core.poll(now);
        sendOutbound();
        if (log.hasUnflushed()) {
            syncing = true;
            node.scheduler().scheduleAfter(node.disk().nextSyncLatencyMs(), EventKind.DISK_SYNC, node.nodeId(),
                    () -> guard(this::syncDone));
            return;
        }
        afterLoop(deadline, now);
    }

    private void syncDone() {
        if (!alive) {
            return;
        }
        if (paused) {
            syncDoneWhilePaused = true;
            return;
        }
        syncing = false;
        log.flush();
        long now = localNowMs();
        long deadline = core.poll(now);
        sendOutbound();
        afterLoop(deadline, now);
    }

    private void afterLoop(long deadline, long now) {
        maybeSnapshot();
        if (shuttingDown && (core.isShutdownComplete(now) || now >= shutdownDeadlineMs)) {
            node.stopGracefully();
            return;
        }
        if (!inbox.isEmpty() || log.hasUnflushed()) {
            requestStep();
        } else {
            scheduleWake(deadline);
        }
    }

    private void take(NodeInput input, long now) {
        if (input instanceof NodeInput.Inbound inbound) {
            core.handle(inbound.message(), now);
        } else if (input instanceof NodeInput.ClientAppend append) {
            clientAppend(append, now);
        } else if (input instanceof NodeInput.Resign) {
            core.resign(now);
        } else if (input instanceof NodeInput.Shutdown) {
            shuttingDown = true;
            // ServerMain gives RaftNode.shutdown the request timeout; the core waits for a successor up to it.
            shutdownDeadlineMs = now + node.setup().timeouts().requestTimeoutMs();
            core.beginShutdown(now);
            scheduleWake(shutdownDeadlineMs);
        }
    }

    private void clientAppend(NodeInput.ClientAppend append, long now) {
        AppendResult result = core.append(append.epoch(), append.records(), now);
        if (!result.accepted()) {
            return;
        }
        long firstOffset = result.lastOffset() - append.records().size() + 1;
        for (int i = 0; i < append.appendIds().length; i++) {
            appends.onAccepted(new AppendTracker.PendingAppend(append.appendIds()[i], node.nodeId(), result.epoch(),
                    firstOffset + i, node.scheduler().nowMs()));
        }
    }

    private void sendOutbound() {
        for (RaftMessage message : core.takeOutbound()) {
            node.network().send(node.setup().outboundRewrite().apply(message));
        }
    }

    private void scheduleWake(long localDeadlineMs) {
        long atMs = node.clock().globalMsAt(localDeadlineMs, node.scheduler().nowMs());
        if (atMs == Long.MAX_VALUE || (wakePending && wakeAtMs <= atMs)) {
            return;
        }
        wakePending = true;
        wakeAtMs = atMs;
        long token = ++wakeToken;
        node.scheduler().schedule(atMs, EventKind.NODE_WAKE, node.nodeId(), () -> guard(() -> onWake(token)));
    }

    private void onWake(long token) {
        if (!alive || token != wakeToken) {
            return;
        }
        wakePending = false;
        if (!syncing && !paused) {
            step();
        }
    }

    private void maybeSnapshot() {
        int interval = node.setup().snapshotIntervalRecords();
        long applied = listener.appliedOffset();
        if (interval <= 0 || applied - lastSnapshotOffset < interval || applied <= log.startOffset()) {
            return;
        }
        OffsetAndEpoch id = core.snapshotIdAt(applied);
        SnapshotWriter writer = log.createSnapshot(id);
        listener.writeSnapshot(writer, node.setup().limits().appendBatchRecordsMax());
        core.createSnapshot(writer);
        lastSnapshotOffset = applied;
    }

    private void scheduleWriteback() {
        node.scheduler().scheduleAfter(node.setup().writebackIntervalMs(), EventKind.DISK_SYNC, node.nodeId(), () -> {
            if (alive) {
                log.writeback();
                scheduleWriteback();
            }
        });
    }

    /** Runs one driver action, turning what the core throws into the right consequence. */
    private void guard(Runnable action) {
        if (!alive) {
            return;
        }
        try {
            action.run();
        } catch (StorageException e) {
            node.stopAfterStorageError(e);
        } catch (CheckFailure e) {
            throw e;
        } catch (InvariantViolation e) {
            throw new CheckFailure("core-invariant", "node " + node.nodeId() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw CheckFailure.ofException("core-exception", "node " + node.nodeId() + " threw ", e);
        }
    }
}
