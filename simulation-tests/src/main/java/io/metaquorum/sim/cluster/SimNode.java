package io.metaquorum.sim.cluster;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.storage.StorageException;
import io.metaquorum.sim.clock.NodeClock;
import io.metaquorum.sim.check.CoreFailures;
import io.metaquorum.sim.network.NetworkEndpoint;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.storage.SimDisk;
import io.metaquorum.sim.storage.SimRaftLog;
import io.metaquorum.sim.machine.AppendTracker;
import io.metaquorum.sim.machine.StateMachineListener;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * One machine of the simulated cluster: a disk and a clock that outlive its processes, and
 * at most one running {@link NodeProcess}. Starting makes a new incarnation that recovers
 * from the disk; stopping (crash, I/O error, graceful shutdown, wipe) ends it and resets its
 * connections.
 *
 * <p>Invariants: {@code incarnation} increases at every start; {@code dataLossCount} increases
 * whenever the node loses written data (unsynced writes at a crash, or a wipe), and
 * {@code wipeCount} at every wipe: the checkers forgive regressions only across those.
 */
public final class SimNode implements NetworkEndpoint {
    private final int nodeId;
    private final boolean voter;
    private final NodeSetup setup;
    private final SimDisk disk;
    private final NodeClock clock;
    private final Random random;
    private final EventScheduler scheduler;
    private final SimNetwork network;
    private final AppendTracker appends;
    private final NodeLifecycleListener lifecycle;
    private NodeProcess process;
    private long incarnation;
    private long dataLossCount;
    private long wipeCount;
    private long lastWipeAtMs = Long.MIN_VALUE;
    private StopReason lastStopReason;
    /** The voter set the last process saw in force, kept when it stops; null before any ran. */
    private VoterSet lastVoterSet;
    /** Where the answers to client requests ({@link RaftRequest#CLIENT}) go: an admin client. */
    private Consumer<RaftResponse> clientAnswers = answer -> { };

    public SimNode(int nodeId, boolean voter, NodeSetup setup, SimDisk disk, NodeClock clock, Random random,
                   NodeEnvironment environment) {
        this.nodeId = nodeId;
        this.voter = voter;
        this.setup = setup;
        this.disk = disk;
        this.clock = clock;
        this.random = random;
        this.scheduler = environment.scheduler();
        this.network = environment.network();
        this.appends = environment.appends();
        this.lifecycle = environment.lifecycle();
        network.register(nodeId, this);
    }

    /** Starts a new process incarnation, recovering from the disk. */
    public void start() {
        if (process != null) {
            return;
        }
        incarnation++;
        try {
            process = new NodeProcess(this, appends);
        } catch (StorageException e) {
            process = null;
            lifecycle.onStopped(this, StopReason.IO_ERROR);
            return;
        } catch (RuntimeException e) {
            throw CoreFailures.of("node " + nodeId + " at start", e);
        }
        lifecycle.onStarted(this);
    }

    /** Kills the process: unsynced writes are lost, connections reset. */
    public void crash() {
        stop(StopReason.CRASH);
    }

    /** Kills the process and replaces the disk by an empty one. */
    public void wipe() {
        if (process != null) {
            lastVoterSet = process.voters();
            process.kill();
            process = null;
            network.onProcessStopped(nodeId);
        }
        disk.wipe();
        lastStopReason = StopReason.WIPE;
        dataLossCount++;
        wipeCount++;
        lastWipeAtMs = scheduler.nowMs();
        lifecycle.onStopped(this, StopReason.WIPE);
    }

    /**
     * Freezes the running process (SIGSTOP: a long GC pause, a VM stall): it neither reads nor
     * sends, its timers do not run, its connections stay open (no reset). Lasts until
     * {@link #resume()}; a crash of a paused process ends the pause with the process.
     */
    public void pause() {
        if (process != null) {
            process.pause();
        }
    }

    /** SIGCONT: the process reads what waited for it, its clock showing the time that passed. */
    public void resume() {
        if (process != null) {
            process.resume();
        }
    }

    /** Whether the running process is paused. */
    public boolean isPaused() {
        return process != null && process.isPaused();
    }

    /** Makes a running node's driver loop once soon (its clock jumped, timers are overdue). */
    public void nudge() {
        if (process != null) {
            process.nudge();
        }
    }

    public void beginShutdown() {
        submit(new NodeInput.Shutdown());
    }

    public void resign() {
        submit(new NodeInput.Resign());
    }

    public void clientAppend(int epoch, List<ByteString> records, long[] appendIds) {
        submit(new NodeInput.ClientAppend(epoch, records, appendIds));
    }

    void stopGracefully() {
        lastVoterSet = process.voters();
        process.syncAndStop();
        process = null;
        lastStopReason = StopReason.SHUTDOWN;
        network.onProcessStopped(nodeId);
        lifecycle.onStopped(this, StopReason.SHUTDOWN);
    }

    void stopAfterStorageError(StorageException error) {
        stop(StopReason.IO_ERROR);
    }

    private void stop(StopReason reason) {
        if (process == null) {
            return;
        }
        lastVoterSet = process.voters();
        if (process.kill()) {
            dataLossCount++;
        }
        process = null;
        lastStopReason = reason;
        network.onProcessStopped(nodeId);
        lifecycle.onStopped(this, reason);
    }

    private void submit(NodeInput input) {
        if (process != null) {
            process.submit(input);
        }
    }

    /**
     * A client request (AddVoter, RemoveVoter) reaching this node as the transport's server
     * endpoint delivers it: into the driver's inbound queue, source {@link RaftRequest#CLIENT}.
     * Its answer goes to {@link #setClientAnswers}; none comes if the process stops first.
     */
    public void clientRequest(RaftRequest request) {
        submit(new NodeInput.Inbound(request));
    }

    public void setClientAnswers(Consumer<RaftResponse> answers) {
        this.clientAnswers = answers;
    }

    void answerClient(RaftResponse response) {
        clientAnswers.accept(response);
    }

    /**
     * The voter set in force on the running process (KIP-853: the latest VotersRecord in its
     * log, else its snapshot's, else its bootstrap set); when stopped, the one its last process
     * saw; null if no process ever ran.
     */
    public VoterSet voterSet() {
        return process != null ? process.voters() : lastVoterSet;
    }

    /**
     * Whether the running process's latest VotersRecord, not known committed there, removed
     * this node with the directory id of its current disk: the one case where a replica
     * outside its own voter set may campaign (a leader that removed itself may have to
     * finish the change).
     */
    public boolean removedByPendingChange() {
        if (process == null) {
            return false;
        }
        return process.pendingVoterChange().map(change -> change.getRemovedList().stream()
                .map(ReplicaKey::fromMessage)
                .anyMatch(key -> key.id() == nodeId && key.directoryId().equals(disk.format().directoryId())))
                .orElse(false);
    }

    /**
     * Whether {@code voters} lists this node with the directory id of its current disk: a
     * wiped disk's new directory id makes it an observer until it is added back.
     */
    public boolean listedWithOwnDisk(VoterSet voters) {
        return voters != null && voters.voter(nodeId)
                .map(v -> v.key().directoryId().equals(disk.format().directoryId())).orElse(false);
    }

    @Override
    public void deliver(RaftMessage message) {
        submit(new NodeInput.Inbound(message));
    }

    @Override
    public boolean isRunning() {
        return process != null;
    }

    @Override
    public long incarnation() {
        return incarnation;
    }

    /** The running process's status; the node must be running. */
    public RaftStatus status() {
        return process.status();
    }

    /** The running process's log; the node must be running. */
    public SimRaftLog log() {
        return process.log();
    }

    /** The running process's role (system mode), or null when raft-only or not running. */
    public NodeRole role() {
        return process == null ? null : process.role();
    }

    /** How the last process incarnation ended, or null before any did. */
    public StopReason lastStopReason() {
        return lastStopReason;
    }

    /** The running process's state machine listener; the node must be running. */
    public StateMachineListener stateMachine() {
        return process.listener();
    }

    public int nodeId() {
        return nodeId;
    }

    public boolean isVoter() {
        return voter;
    }

    public SimDisk disk() {
        return disk;
    }

    public NodeClock clock() {
        return clock;
    }

    public long dataLossCount() {
        return dataLossCount;
    }

    public long wipeCount() {
        return wipeCount;
    }

    /** When the disk was last wiped, or {@link Long#MIN_VALUE}. */
    public long lastWipeAtMs() {
        return lastWipeAtMs;
    }

    NodeSetup setup() {
        return setup;
    }

    Random random() {
        return random;
    }

    EventScheduler scheduler() {
        return scheduler;
    }

    SimNetwork network() {
        return network;
    }
}
