package io.metaquorum.sim.system.world;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.sim.cluster.NodeRole;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.system.fs.SimulatedCrash;
import io.metaquorum.sim.system.node.LifecycleAnswer;
import io.metaquorum.sim.system.node.RaftPort;
import io.metaquorum.sim.system.node.SimBrokerNode;
import io.metaquorum.sim.system.node.SimSnapshotWriter;
import java.util.List;
import java.util.Optional;

/**
 * An observer's role in system mode: the real broker lifecycle, loader and reconciler
 * ({@link SimBrokerNode}) of one process incarnation over the machine's {@code SimFileSystem}.
 * Its lifecycle calls go over the simulated network to the controller raft names as leader,
 * each under a deadline (the gRPC deadline of production); an answer after it, or for an
 * earlier call, is dropped. A graceful stop begins with the broker's controlled shutdown
 * (production's {@code BrokerLifecycleDriver#shutDownGracefully}): the process's raft shutdown
 * waits until the lifecycle is SHUT_DOWN or the stop's timeout passed.
 */
final class BrokerRole implements NodeRole {
    private final SimNode machine;
    private final SimBrokerNode broker;
    private final SystemWorld world;
    private final RaftListener listener;
    private final SimSnapshotWriter snapshots;
    private int leaderId = -1;
    private long callToken;
    private long callDeadlineMs = Long.MAX_VALUE;
    private boolean alive = true;

    BrokerRole(SimNode machine, SimBrokerNode broker, SimSnapshotWriter snapshots, SystemWorld world) {
        this.machine = machine;
        this.snapshots = snapshots;
        this.broker = broker;
        this.world = world;
        this.listener = new CommitTap(new LeaderTap(), world, machine.nodeId());
    }

    SimBrokerNode broker() {
        return broker;
    }

    @Override
    public RaftListener listener() {
        return listener;
    }

    @Override
    public long drive(RaftPort raft, long nowMs) {
        snapshots.writePending(raft);
        if (nowMs >= callDeadlineMs) {
            callDeadlineMs = Long.MAX_VALUE;
            callToken++;
            broker.onLifecycleFailed("deadline exceeded", nowMs);
        }
        Optional<LifecycleCall> call = broker.pollLifecycle(nowMs);
        call.ifPresent(c -> send(c, nowMs));
        Optional<ReconcileResult> result;
        try {
            result = broker.maybeReconcile(nowMs);
        } catch (SimulatedCrash crash) {
            // kill -9 in the middle of the directory work: the process dies here, its disk keeps what it synced.
            world.onCrashPoint();
            machine.crash();
            return Long.MAX_VALUE;
        }
        if (result.isPresent() && result.get().complete()) {
            world.checkDirectories(machine.nodeId(), broker, nowMs);
        } else if (result.isPresent()) {
            world.onReconcileFailed();
        }
        return Math.min(broker.nextDeadlineMs(), callDeadlineMs);
    }

    @Override
    public void beginShutdown(long nowMs) {
        broker.lifecycle().beginControlledShutdown(nowMs);
        if (broker.state() == BrokerState.PENDING_CONTROLLED_SHUTDOWN) {
            world.onControlledShutdownBegun();
        }
    }

    @Override
    public boolean readyToStop(long nowMs) {
        return broker.state() == BrokerState.SHUT_DOWN;
    }

    @Override
    public void stopped() {
        alive = false;
    }

    private void send(LifecycleCall call, long nowMs) {
        if (leaderId < 0) {
            broker.onLifecycleFailed("no controller known", nowMs);
            return;
        }
        long token = ++callToken;
        callDeadlineMs = nowMs + SystemWorld.LIFECYCLE_CALL_TIMEOUT_MS;
        world.rpc().<LifecycleAnswer>call(machine.nodeId(), () -> alive && token == callToken, leaderId,
                (callee, reply) -> {
                    if (callee.role() instanceof ControllerRole controller) {
                        controller.handleLifecycle(call, world.localNowMs(callee), reply);
                        callee.nudge();
                    }
                },
                answer -> finish(() -> onAnswer(answer, world.localNowMs(machine))),
                () -> finish(() -> broker.onLifecycleFailed("connection refused", world.localNowMs(machine))));
    }

    /** Hands the answer to the lifecycle; a controller that let the broker go is judged on the committed image. */
    private void onAnswer(LifecycleAnswer answer, long nowMs) {
        boolean pending = broker.state() == BrokerState.PENDING_CONTROLLED_SHUTDOWN;
        broker.onLifecycleAnswer(answer, nowMs);
        if (pending && broker.state() == BrokerState.SHUT_DOWN && answer instanceof LifecycleAnswer.Heartbeat heartbeat
                && heartbeat.response().getShouldShutDown()) {
            world.onControlledShutdownCompleted(machine.nodeId());
        }
    }

    private void finish(Runnable outcome) {
        if (machine.isPaused()) {
            return; // a paused broker reads no answer; its call's deadline fails the call once it runs again
        }
        callDeadlineMs = Long.MAX_VALUE;
        callToken++;
        outcome.run();
        machine.nudge();
    }

    /** Follows the leader raft names (the controller lifecycle calls go to), then passes the callback on. */
    private final class LeaderTap implements RaftListener {
        @Override
        public void handleCommit(List<RecordBatch> batches) {
            broker.handleCommit(batches);
        }

        @Override
        public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
            broker.handleLoadSnapshot(snapshotId, snapshot);
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
            leaderId = leader.leaderId();
            broker.handleLeaderChange(leader);
        }

        @Override
        public void handleBecomeLeader(int epoch, long epochStartOffset) {
            broker.handleBecomeLeader(epoch, epochStartOffset);
        }

        @Override
        public void handleResign(int epoch) {
            broker.handleResign(epoch);
        }
    }
}
