package io.metaquorum.sim.system.node;

import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.snapshot.SnapshotScheduler;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The state machine of a simulated broker node, wired as production wires one
 * ({@code BrokerRole}, {@code ImagePublishingListener}, {@code LogManager}) with the threads
 * taken out: raft's committed batches feed the real {@link MetadataLoader}; the real
 * {@link BrokerLifecycle} decides its registration and heartbeats from the replayed offset;
 * the real {@link PartitionReconciler} keeps the partition directories of the simulated disk
 * in line with the newest image, scheduled as the LogManager schedules it (the newest image
 * once it changes, again when a stray falls due, after a disk error with a doubling backoff;
 * never an empty image).
 *
 * <p>One incarnation per object: a restart is a new one over the same {@link SimPartitionStore}
 * (and a new incarnation id), which rescans the disk.
 */
public final class SimBrokerNode implements RaftListener {
    /** The LogManager's first retry after a disk error, doubled per failure up to {@link #RETRY_BACKOFF_MS_MAX}. */
    public static final long RETRY_BACKOFF_MS_MIN = 100;
    public static final long RETRY_BACKOFF_MS_MAX = 10_000;

    private final int nodeId;
    private final MetadataLoader loader;
    private final BrokerLifecycle lifecycle;
    private final PartitionReconciler reconciler;
    private MetadataImage reconciled;
    private long strayDeadlineMs = Long.MAX_VALUE;
    private long retryAtMs = -1;
    private long backoffMs = RETRY_BACKOFF_MS_MIN;
    private long passes;

    public SimBrokerNode(int nodeId, String clusterId, Uuid incarnationId, LifecycleTimings timings,
                         SimPartitionStore store, List<Path> logDirs, long deleteStaleTopicDelayMs,
                         long snapshotTriggerBytes, SnapshotScheduler snapshots) {
        this.nodeId = nodeId;
        String logPrefix = "[node " + nodeId + "] ";
        this.loader = new MetadataLoader(logPrefix, snapshotTriggerBytes, snapshots);
        this.lifecycle = new BrokerLifecycle(logPrefix, clusterId, nodeId, incarnationId, List.of(), "", timings);
        this.reconciler = new PartitionReconciler(nodeId, logDirs, deleteStaleTopicDelayMs, store, logPrefix);
    }

    public int nodeId() {
        return nodeId;
    }

    public MetadataImage image() {
        return loader.image();
    }

    /** The image whose directories are all in place, or null before the first complete pass. */
    public MetadataImage reconciledImage() {
        return reconciled;
    }

    public BrokerLifecycle lifecycle() {
        return lifecycle;
    }

    public BrokerState state() {
        return lifecycle.state();
    }

    public long reconcilePasses() {
        return passes;
    }

    // ---- raft's callbacks ----

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        loader.handleCommit(batches);
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        loader.handleLoadSnapshot(snapshotId, snapshot);
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        loader.handleLeaderChange(leader);
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        loader.handleBecomeLeader(epoch, epochStartOffset);
    }

    @Override
    public void handleResign(int epoch) {
        loader.handleResign(epoch);
    }

    // ---- the broker's own work ----

    /** The lifecycle call due now, if any; its outcome goes back through {@link #onLifecycleAnswer} or {@link #onLifecycleFailed}. */
    public Optional<LifecycleCall> pollLifecycle(long nowMs) {
        return lifecycle.poll(nowMs, loader.image().lastCommittedOffset());
    }

    public void onLifecycleAnswer(LifecycleAnswer answer, long nowMs) {
        if (answer instanceof LifecycleAnswer.Registration registration) {
            lifecycle.onRegistration(registration.response(), nowMs);
        } else {
            lifecycle.onHeartbeat(((LifecycleAnswer.Heartbeat) answer).response(), nowMs);
        }
    }

    public void onLifecycleFailed(String reason, long nowMs) {
        lifecycle.onCallFailed(reason, nowMs);
    }

    /** Runs a reconcile pass when the LogManager would; empty when none was due. */
    public Optional<ReconcileResult> maybeReconcile(long nowMs) {
        MetadataImage newest = loader.image();
        if (newest.isEmpty()) {
            return Optional.empty();
        }
        boolean due = retryAtMs >= 0 ? nowMs >= retryAtMs : newest != reconciled || nowMs >= strayDeadlineMs;
        if (!due) {
            return Optional.empty();
        }
        passes++;
        ReconcileResult result = reconciler.reconcile(newest, nowMs);
        if (result.complete()) {
            reconciled = newest;
            strayDeadlineMs = result.nextDeadlineMs();
            retryAtMs = -1;
            backoffMs = RETRY_BACKOFF_MS_MIN;
        } else {
            retryAtMs = nowMs + backoffMs;
            backoffMs = Math.min(2 * backoffMs, RETRY_BACKOFF_MS_MAX);
        }
        return Optional.of(result);
    }

    /** When this broker next has work of its own (a lifecycle call, a stray, a retry); Long.MAX_VALUE for none. */
    public long nextDeadlineMs() {
        long reconcileAtMs = retryAtMs >= 0 ? retryAtMs : strayDeadlineMs;
        return Math.min(lifecycle.nextDeadlineMs(loader.image().lastCommittedOffset()), reconcileAtMs);
    }
}
