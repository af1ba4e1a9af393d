package io.metaquorum.sim.cluster;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.loop.DriverLoop;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.StorageException;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.check.CoreFailures;
import io.metaquorum.sim.scheduler.EventKind;
import io.metaquorum.sim.storage.LogFaultMode;
import io.metaquorum.sim.storage.SimQuorumStateStore;
import io.metaquorum.sim.storage.SimRaftLog;
import io.metaquorum.sim.system.node.RaftPort;
import io.metaquorum.sim.machine.AppendTracker;
import io.metaquorum.sim.machine.StateMachineListener;
import java.util.Optional;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;

/**
 * One incarnation of a node's process: the production {@link DriverLoop} (and the
 * {@link RaftCore} it builds), run pass after pass exactly as the production driver thread
 * runs it, with the simulated scheduling around it: the production driver's two queues
 * (tasks: client appends, resignations, snapshot registrations; inbound messages) are plain
 * deques here, and a sync takes simulated time, during which the driver is blocked and
 * inputs queue up, so a crash can fall between sending and syncing. A pass drains the tasks
 * and the messages (each at most the loop's per-pass bound), polls, sends, and if anything
 * is unflushed the process syncs and the loop finishes the pass after it.
 *
 * <p>Paused ({@link #pause()}, SIGSTOP): the driver does nothing, not even for its timers or a
 * finished sync; what reaches the process waits in its queues (the socket buffers, bounded by
 * {@link #PAUSED_INBOX_MAX}: beyond it inputs are dropped and their calls time out) and
 * it sends nothing. Resumed ({@link #resume()}), it runs at once: its clock reads the time that
 * passed, so every deadline that fell in the pause is overdue together.
 *
 * <p>A graceful stop of a process that runs a role goes in production's order
 * ({@link RoleShutdown}): a broker's controlled shutdown, then raft's shutdown; a crash in
 * between kills the process as any crash does.
 *
 * <p>Once killed ({@link #kill()}) every event still scheduled for it does nothing.
 * Exceptions from the core: a storage error stops the node (the production fault handler
 * would halt the process); a core invariant or any other exception fails the run.
 */
final class NodeProcess {
    /** Inputs a paused process's socket buffers hold; more are dropped. */
    static final int PAUSED_INBOX_MAX = 10_000;

    private final SimNode node;
    private final DriverLoop loop;
    private final RaftCore core;
    private final SimRaftLog log;
    private final StateMachineListener listener;
    /** The controller or broker this incarnation runs (system mode), or null. */
    private final NodeRole role;
    private final RolePort rolePort;
    /** A graceful stop's order when a role runs (its part, then raft's), or null without a role. */
    private final RoleShutdown roleShutdown;
    private final AppendTracker appends;
    private final ArrayDeque<DriverLoop.CoreTask> tasks = new ArrayDeque<>();
    private final ArrayDeque<RaftMessage> inbound = new ArrayDeque<>();
    private final DriverLoop.Source<DriverLoop.CoreTask> taskSource = tasks::poll;
    private final DriverLoop.Source<RaftMessage> inboundSource = inbound::poll;
    private boolean alive = true;
    private boolean syncing;
    private boolean stepScheduled;
    private boolean wakePending;
    private boolean paused;
    /** A sync finished while paused: the driver continues after it once resumed. */
    private boolean syncDoneWhilePaused;
    /** A snapshot registration waits in {@link #tasks}; no second one is queued meanwhile. */
    private boolean snapshotQueued;
    private long wakeAtMs;
    private long wakeToken;
    private long lastSnapshotOffset;

    NodeProcess(SimNode node, AppendTracker appends) {
        this.node = node;
        this.appends = appends;
        NodeSetup setup = node.setup();
        this.log = SimRaftLog.open(node.disk(), setup.logMode(), setup.logObserver());
        this.listener = setup.listenerFor(node.nodeId());
        this.role = setup.roleFor(node);
        RaftListener coreListener = role == null ? listener : new TeeListener(listener, role.listener());
        SimQuorumStateStore store = new SimQuorumStateStore(node.disk(), setup.persistVotes());
        // The checkers read the core's state after every event, not the status a pass publishes.
        this.loop = new DriverLoop(setup.configFor(node.nodeId(), node.disk().format()), log, store, new Random(node.random().nextLong()),
                coreListener, localNowMs(), this::send, published -> { });
        this.core = loop.core();
        this.rolePort = role == null ? null : new RolePort(core, log, snapshotLimits(setup));
        this.roleShutdown = role == null ? null : new RoleShutdown(role, loop, setup.timeouts().requestTimeoutMs());
        this.lastSnapshotOffset = log.startOffset();
        if (setup.logMode() == LogFaultMode.ACK_BEFORE_SYNC) {
            scheduleWriteback();
        }
        requestStep();
    }

    RaftStatus status() {
        return core.status();
    }

    /** The voter set in force in the core (KIP-853). */
    VoterSet voters() {
        return core.voters();
    }

    /** The core's voter change not known committed yet, if any (KIP-853). */
    Optional<PendingVoterChange> pendingVoterChange() {
        return core.pendingVoterChange();
    }

    SimRaftLog log() {
        return log;
    }

    StateMachineListener listener() {
        return listener;
    }

    NodeRole role() {
        return role;
    }

    /** Makes the driver loop once soon, e.g. after its clock jumped past its deadlines. */
    void nudge() {
        requestStep();
    }

    /** Queues an input as the production driver's queues would: a task, an inbound message, a shutdown request. */
    void submit(NodeInput input) {
        if (paused && tasks.size() + inbound.size() >= PAUSED_INBOX_MAX) {
            return;
        }
        if (input instanceof NodeInput.Inbound message) {
            inbound.add(message.message());
        } else if (input instanceof NodeInput.ClientAppend append) {
            tasks.add((raft, now) -> clientAppend(append, now));
        } else if (input instanceof NodeInput.Resign) {
            tasks.add((raft, now) -> raft.resign(now));
        } else if (input instanceof NodeInput.Shutdown) {
            // ServerMain gives RaftNode.shutdown the request timeout; the core waits for a successor up to it.
            if (roleShutdown == null) {
                loop.requestShutdown(node.setup().timeouts().requestTimeoutMs());
            } else {
                roleShutdown.request();
                if (!paused) {
                    roleShutdown.advance(localNowMs());
                }
            }
        }
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
        clearQueues();
        stopRole();
        return log.crash();
    }

    /** A graceful stop's last act: sync what is pending, then stop. */
    void syncAndStop() {
        alive = false;
        clearQueues();
        stopRole();
        if (log.hasUnflushed()) {
            log.flush();
        }
        log.close();
    }

    private void stopRole() {
        if (role != null) {
            role.stopped();
        }
    }

    private void clearQueues() {
        tasks.clear();
        inbound.clear();
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

    /** A pass of the loop up to its flush; the sync, if one is needed, ends in {@link #syncDone()}. */
    private void step() {
        stepScheduled = false;
        if (!alive || syncing || paused) {
            return;
        }
        long deadline = loop.runPass(localNowMs(), taskSource, inboundSource);
        if (loop.awaitsFlush()) {
            syncing = true;
            node.scheduler().scheduleAfter(node.disk().nextSyncLatencyMs(), EventKind.DISK_SYNC, node.nodeId(),
                    () -> guard(this::syncDone));
            return;
        }
        afterPass(deadline);
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
        afterPass(loop.completeFlush(localNowMs()));
    }

    /** Between passes: the snapshot policy, a graceful stop's progress, then the wait for the next pass. */
    private void afterPass(long passDeadline) {
        maybeQueueSnapshot();
        if (loop.isShutdownOver()) {
            node.stopGracefully();
            return;
        }
        long deadline = passDeadline;
        boolean passDue = false;
        if (role != null) {
            // A broker's controlled shutdown first; raft's shutdown, once requested, needs a pass to begin.
            passDue = roleShutdown.advance(localNowMs());
            deadline = Math.min(deadline, roleShutdown.deadlineMs());
            // The role's own thread, after the core call returned: its appends and resignations go to the core now.
            rolePort.wrote = false;
            deadline = Math.min(deadline, role.drive(rolePort, localNowMs()));
            passDue |= rolePort.wrote;
            if (!alive) {
                return; // the role's machine crashed under it (a crash point of its file system)
            }
        }
        if (passDue || !tasks.isEmpty() || !inbound.isEmpty()) {
            requestStep();
        } else {
            scheduleWake(deadline);
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

    /** The simulation's small raft limits bound the snapshot's batches too, so a snapshot spans several. */
    private static SnapshotLimits snapshotLimits(NodeSetup setup) {
        return new SnapshotLimits(setup.limits().appendBatchRecordsMax(), setup.limits().appendBatchBytesMax());
    }

    /**
     * The role's appends, resignations and snapshot registrations, made on the core between
     * passes; a next pass sends and syncs them.
     */
    private static final class RolePort implements RaftPort {
        private final RaftCore core;
        private final SimRaftLog log;
        private final SnapshotLimits snapshotLimits;
        private boolean wrote;

        RolePort(RaftCore core, SimRaftLog log, SnapshotLimits snapshotLimits) {
            this.core = core;
            this.log = log;
            this.snapshotLimits = snapshotLimits;
        }

        @Override
        public boolean registerSnapshot(SnapshotTask task) {
            wrote = true;
            if (task.id().offset() <= log.startOffset()) {
                return false; // a snapshot from the leader was installed meanwhile
            }
            SnapshotWriter writer = log.createSnapshot(task.id());
            try {
                task.writeTo(writer, snapshotLimits);
                return core.createSnapshot(writer);
            } finally {
                writer.close();
            }
        }

        @Override
        public AppendResult append(int epoch, List<ByteString> records, long nowMs) {
            wrote = true;
            return core.append(epoch, records, nowMs);
        }

        @Override
        public AppendResult appendControl(int epoch, List<ByteString> records, long nowMs) {
            wrote = true;
            return core.appendControl(epoch, records, nowMs);
        }

        @Override
        public void resign(int epoch, long nowMs) {
            wrote = true;
            if (core.status().isLeader() && core.status().epoch() == epoch) {
                core.resign(nowMs);
            }
        }
    }

    private void send(RaftMessage message) {
        if (message instanceof RaftResponse response && response.destinationId() == RaftRequest.CLIENT) {
            node.answerClient(response);
            return;
        }
        node.network().send(node.setup().outboundRewrite().apply(message));
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

    /**
     * The simulation's snapshot policy (every {@code snapshotIntervalRecords} applied records):
     * the snapshot is written and registered by a task of the next pass, as production's
     * snapshot writer registers its snapshot through a driver task.
     */
    private void maybeQueueSnapshot() {
        int interval = node.setup().snapshotIntervalRecords();
        long applied = listener.appliedOffset();
        if (snapshotQueued || interval <= 0 || applied - lastSnapshotOffset < interval || applied <= log.startOffset()) {
            return;
        }
        snapshotQueued = true;
        tasks.add((raft, now) -> snapshot(raft));
    }

    private void snapshot(RaftCore raft) {
        snapshotQueued = false;
        long applied = listener.appliedOffset();
        if (applied <= log.startOffset()) {
            return; // a snapshot from the leader was installed meanwhile
        }
        OffsetAndEpoch id = raft.snapshotIdAt(applied);
        SnapshotWriter writer = log.createSnapshot(id);
        listener.writeSnapshot(writer, node.setup().limits().appendBatchRecordsMax());
        raft.createSnapshot(writer);
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
        } catch (RuntimeException e) {
            throw CoreFailures.of("node " + node.nodeId(), e);
        }
    }
}
