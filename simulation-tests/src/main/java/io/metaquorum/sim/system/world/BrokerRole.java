package io.metaquorum.sim.system.world;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.broker.partition.ScheduledReconciler;
import io.metaquorum.sim.system.invariant.BrokerDirectoryCheck;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.sim.cluster.NodeRole;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import io.metaquorum.sim.system.fs.SimulatedCrash;
import io.metaquorum.sim.system.node.LifecycleAnswer;
import io.metaquorum.sim.system.node.RaftPort;
import io.metaquorum.sim.system.node.SimSnapshotWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * An observer's role in system mode: production's {@link BrokerNode} for one process
 * incarnation, over the machine's simulated disk (a {@link ScheduledReconciler} stepped on the
 * node's thread, where production gives it the LogManager's) and the simulated network
 * ({@link SimLifecycleTransport}). This class only watches it: every complete reconcile pass
 * is checked against the disk, a crash point of the file system kills the machine, and a
 * controller that lets the broker go is judged on the committed image. A graceful stop begins
 * with the broker's controlled shutdown; the process's raft shutdown waits until the node is
 * ready to stop or the stop's timeout passed.
 */
final class BrokerRole implements NodeRole {
    /** Where a broker keeps its partition directories, and how long a stray waits. */
    record Disk(SimPartitionStore store, List<Path> logDirs, long deleteStaleTopicDelayMs) {
    }

    private final SimNode machine;
    private final SystemWorld world;
    private final BrokerNode broker;
    private final RaftListener listener;
    private final SimSnapshotWriter snapshots;
    private boolean alive = true;
    /** What a full disk took offline in this incarnation: the directory check does not expect it in place. */
    private final BrokerDirectoryCheck.Offline offline;

    BrokerRole(SimNode machine, BrokerNode.Settings settings, Disk disk, long snapshotTriggerBytes,
               SimSnapshotWriter snapshots, SystemWorld world) {
        this.machine = machine;
        this.world = world;
        this.snapshots = snapshots;
        String logPrefix = "[node " + machine.nodeId() + "] ";
        MetadataLoader loader = new MetadataLoader(logPrefix, snapshotTriggerBytes, snapshots);
        PartitionReconciler reconciler = new PartitionReconciler(machine.nodeId(), disk.logDirs(),
                disk.deleteStaleTopicDelayMs(), PartitionReconciler.PUBLISH_DELAY_MS, disk.store(), logPrefix);
        ScheduledReconciler directories = new ScheduledReconciler(reconciler, logPrefix, this::onPass);
        this.offline = new BrokerDirectoryCheck.Offline(reconciler::offlineLogDirs, reconciler::isOffline);
        SimLifecycleTransport transport = new SimLifecycleTransport(machine, world.rpc(), () -> alive,
                this::handleOnController, this::onAnswer);
        this.broker = new BrokerNode(logPrefix, settings, loader, transport, directories,
                () -> world.localNowMs(machine));
        this.listener = new CommitTap(broker.listener(), world, machine.nodeId());
    }

    BrokerNode broker() {
        return broker;
    }

    @Override
    public RaftListener listener() {
        return listener;
    }

    @Override
    public long drive(RaftPort raft, long nowMs) {
        snapshots.writePending(raft);
        try {
            return broker.drive(nowMs);
        } catch (SimulatedCrash crash) {
            // kill -9 in the middle of the directory work: the process dies here, its disk keeps what it synced.
            world.onCrashPoint();
            machine.crash();
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void beginShutdown(long nowMs) {
        broker.beginControlledShutdown(nowMs);
        if (broker.state() == BrokerState.PENDING_CONTROLLED_SHUTDOWN) {
            world.onControlledShutdownBegun();
        }
    }

    @Override
    public boolean readyToStop(long nowMs) {
        return broker.readyToStop();
    }

    @Override
    public void stopped() {
        alive = false;
    }

    private void onPass(MetadataImage image, ReconcileResult result, long nowMs) {
        if (result.complete()) {
            world.checkDirectories(machine.nodeId(), image, nowMs, offline);
        } else if (result.failed()) {
            world.onReconcileFailed();
        }
    }

    /** The controller side of a call, on the callee's machine (its simulated controller's lifecycle handling). */
    private void handleOnController(SimNode callee, LifecycleCall call, Consumer<LifecycleAnswer> reply) {
        if (callee.role() instanceof ControllerRole controller) {
            controller.handleLifecycle(call, world.localNowMs(callee), reply);
            callee.nudge();
        }
    }

    /** A controller that let the broker go (its heartbeat said so) is judged on the committed image. */
    private void onAnswer(LifecycleAnswer answer, Runnable delivery) {
        boolean pending = broker.state() == BrokerState.PENDING_CONTROLLED_SHUTDOWN;
        delivery.run();
        if (pending && broker.state() == BrokerState.SHUT_DOWN && answer instanceof LifecycleAnswer.Heartbeat heartbeat
                && heartbeat.response().getShouldShutDown()) {
            world.onControlledShutdownCompleted(machine.nodeId());
        }
    }
}
