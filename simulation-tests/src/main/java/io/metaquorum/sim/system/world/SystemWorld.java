package io.metaquorum.sim.system.world;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.sim.cluster.NodeRole;
import io.metaquorum.sim.cluster.NodeRoles;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.cluster.StopReason;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.fs.CrashMode;
import io.metaquorum.sim.system.fs.MetadataWriteOrder;
import io.metaquorum.sim.system.fs.SimFileSystem;
import io.metaquorum.sim.system.fs.SimPartitionStore;
import io.metaquorum.sim.system.invariant.AcknowledgedWritesCheck;
import io.metaquorum.sim.system.invariant.AnswerCodeCheck;
import io.metaquorum.sim.system.invariant.BrokerDirectoryCheck;
import io.metaquorum.sim.system.invariant.ControlledShutdownCheck;
import io.metaquorum.sim.system.invariant.ImageReplayCheck;
import io.metaquorum.sim.system.invariant.PartitionLeaderCheck;
import io.metaquorum.sim.system.invariant.ReplayedLog;
import io.metaquorum.sim.system.invariant.ScramWriteCheck;
import io.metaquorum.sim.system.invariant.TopicCompletenessCheck;
import io.metaquorum.sim.system.invariant.TopicIdReuseCheck;
import io.metaquorum.sim.system.linearizability.Operation;
import io.metaquorum.sim.system.node.SimSnapshotWriter;
import io.metaquorum.sim.system.workload.SimCallers;
import io.metaquorum.sim.timeline.BrokerTimeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The system layer of a simulated cluster: every voter runs the real controller,
 * every observer the real broker over its machine's {@link SimFileSystem} (which outlives
 * process crashes as the raft disk does: unsynced files and entries are lost at a crash, kept
 * at a graceful stop; a wipe replaces it by an empty one), admin clients run the seeded
 * workload against the controllers ({@link AdminDriver}), and the system invariants run after
 * every event ({@link #afterEvent}) and at the end ({@link #finish}).
 *
 * <p>The checkers' replay of the committed metadata log is fed by the first node that hands a
 * committed batch to its state machine; raft's own checks prove every node's committed log is
 * the same, so any node's batches define it.
 */
public final class SystemWorld implements NodeRoles {
    public static final List<Path> LOG_DIRS = List.of(Path.of("/data/a"), Path.of("/data/b"));
    static final long SESSION_TIMEOUT_MS = 3_000;
    static final long STRAY_DELAY_MS = 2_000;
    static final long LIFECYCLE_CALL_TIMEOUT_MS = 1_000;
    static final int WRITE_TIMEOUT_MS = 2_000;
    private static final LifecycleTimings TIMINGS = new LifecycleTimings(500, 100, 1_000);
    private static final long CONTROLLER_IDLE_INTERVAL_MS = 500;
    /** The loaders' snapshot triggers a seed draws from: a run of a few tens of KiB of records takes several. */
    private static final long[] SNAPSHOT_TRIGGER_BYTES = {1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10};

    private final String clusterId;
    /** What the admin service gives a write to commit; 0 answers it once raft accepts it (the broken variant). */
    private final int writeTimeoutMs;
    private final EventScheduler scheduler;
    private Random random;
    private final TopicIdReuseCheck ids = new TopicIdReuseCheck();
    private final AcknowledgedWritesCheck acknowledged = new AcknowledgedWritesCheck();
    private final ScramWriteCheck scramCheck = new ScramWriteCheck();
    private final ReplayedLog replayed = new ReplayedLog(this::observeRecord);
    private final ImageReplayCheck imageCheck = new ImageReplayCheck(replayed);
    private final TreeMap<Integer, SimFileSystem> disks = new TreeMap<>();
    private final TreeMap<Integer, Long> disksWipeCount = new TreeMap<>();
    /** Per node position: the image last judged (by identity), so an unchanged image is not compared again. */
    private MetadataImage[] judged;
    private MetadataImage committedJudged;
    private SimCluster cluster;
    /** Every node's authorizer: the same production one, its denials counted instead of logged. */
    private NodeAccess access;
    private long denialsAudited;
    private SystemRpc rpc;
    private AdminDriver admin;
    private long fenceRecords;
    private long unfenceRecords;
    private long registrations;
    /** Brokers a committed FenceBrokerRecord fenced, until an UnfenceBrokerRecord unfences them. */
    private final TreeSet<Integer> fencedBrokers = new TreeSet<>();
    private long unfencesAfterFence;
    private long directoryChecks;
    private long controlledShutdownsBegun;
    private long controlledShutdownsCompleted;
    /** Null unless the run records a timeline. */
    private BrokerTimeline timeline;
    /** {@code metadata.log.max.record.bytes.between.snapshots} of every node of this run. */
    private long snapshotTriggerBytes;
    private final List<SimSnapshotWriter> snapshotWriters = new ArrayList<>();
    private long snapshotsLoaded;
    private long voterChangesTaken;
    private BrokerDiskFaults diskFaults;
    private long crashPointsHit;
    private long reconcileFailures;

    /** @param replyBeforeCommit the checker self-test's broken controller: writes answered once raft accepts them */
    public SystemWorld(String clusterId, EventScheduler scheduler, boolean replyBeforeCommit) {
        this.clusterId = clusterId;
        this.scheduler = scheduler;
        this.writeTimeoutMs = replyBeforeCommit ? 0 : WRITE_TIMEOUT_MS;
    }

    /**
     * Completes the wiring once the nodes exist (they need this object to build their roles,
     * which they do only once started); {@code systemRandom} is the system layer's own stream.
     */
    public void attach(SimCluster simCluster, SimNetwork network, Random systemRandom) {
        this.cluster = simCluster;
        this.random = systemRandom;
        this.access = NodeAccess.enabled(SimCallers.settings(simCluster.maxNodeId()), decision -> denialsAudited++);
        this.rpc = new SystemRpc(scheduler, network, simCluster, new Random(random.nextLong()));
        this.admin = new AdminDriver(this, scheduler, new Random(random.nextLong()), simCluster);
        this.snapshotTriggerBytes = SNAPSHOT_TRIGGER_BYTES[random.nextInt(SNAPSHOT_TRIGGER_BYTES.length)];
        this.diskFaults = new BrokerDiskFaults(scheduler, new Random(random.nextLong()), simCluster, disks::get);
    }

    /** Fills brokers' log dirs from time to time once the faults start, drawing from {@code random} ({@link BrokerDiskFaults}). */
    public void fillDisksWith(Random random) {
        diskFaults.fillDisksWith(random, LOG_DIRS);
    }

    /** Starts the brokers' disk faults the seed drew: write errors and crash points ({@link BrokerDiskFaults}). */
    public void startFaults(boolean writeErrors, boolean crashPoints) {
        diskFaults.start(writeErrors, crashPoints);
    }

    /** The end of the safety phase: the brokers' disks are reliable from now on. */
    public void heal() {
        diskFaults.stop();
    }

    /** Records brokers' states and admin calls into {@code brokerTimeline} from now on (reads only). */
    public void recordTimeline(BrokerTimeline brokerTimeline) {
        this.timeline = brokerTimeline;
        admin.recordTimeline(brokerTimeline);
    }

    public AdminDriver admin() {
        return admin;
    }

    /** The nodes' authorizer ({@code authorizer.enabled=true}), with {@link SimCallers#settings}. */
    NodeAccess access() {
        return access;
    }

    SystemRpc rpc() {
        return rpc;
    }

    EventScheduler scheduler() {
        return scheduler;
    }

    String clusterId() {
        return clusterId;
    }

    /** What a client's write asks its commit to wait for: 0 answers once raft accepted it (the broken variant). */
    int writeTimeoutMs() {
        return writeTimeoutMs;
    }

    SimCluster cluster() {
        return cluster;
    }

    /** The SCRAM credential writes' answers, judged by the controller's rules and, at the end, against the log. */
    ScramWriteCheck scramCheck() {
        return scramCheck;
    }

    /** The committed image as the checkers replayed it. */
    MetadataImage committedImage() {
        return replayed.last();
    }

    long localNowMs(SimNode node) {
        return node.clock().localMs(scheduler.nowMs());
    }

    @Override
    public NodeRole create(SimNode node) {
        SimSnapshotWriter snapshots = new SimSnapshotWriter();
        snapshotWriters.add(snapshots);
        if (node.isVoter()) {
            ControllerConfig config = new ControllerConfig(new ControllerManagers.Settings(ReplicationDefaults.KAFKA,
                    SESSION_TIMEOUT_MS, new TreeMap<>()), CreateTopicPolicy.NONE, CONTROLLER_IDLE_INTERVAL_MS, 8192);
            return new ControllerRole(node, config, new SplittableRandom(random.nextLong()), snapshotTriggerBytes,
                    snapshots, this);
        }
        SimFileSystem fs = diskOf(node);
        Uuid incarnation = Uuid.newBuilder().setMostSignificantBits(node.nodeId())
                .setLeastSignificantBits(node.incarnation()).build();
        BrokerNode.Settings settings = new BrokerNode.Settings(clusterId, node.nodeId(), incarnation, List.of(), "",
                TIMINGS, cluster.voters().stream().map(SimNode::nodeId).toList(), LIFECYCLE_CALL_TIMEOUT_MS);
        BrokerRole.Disk disk = new BrokerRole.Disk(new SimPartitionStore(fs, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC),
                LOG_DIRS, STRAY_DELAY_MS);
        return new BrokerRole(node, settings, disk, snapshotTriggerBytes, snapshots, this);
    }

    /**
     * The machine's file system for a new incarnation: kept across restarts (what a crash did
     * not sync is lost now, at the restart: nothing touched it in between), a new one after a wipe.
     */
    private SimFileSystem diskOf(SimNode node) {
        int id = node.nodeId();
        SimFileSystem fs = disks.get(id);
        if (fs == null || disksWipeCount.get(id) != node.wipeCount()) {
            fs = new SimFileSystem(new Random(random.nextLong()), CrashMode.KEEP_RANDOM_PREFIX);
            LOG_DIRS.forEach(fs::mkdirs);
            disks.put(id, fs);
            disksWipeCount.put(id, node.wipeCount());
        } else if (node.lastStopReason() != StopReason.SHUTDOWN) {
            if (!fs.isCrashed()) {
                fs.crash(); // else a crash point of its own crashed it already
            }
            fs.restart();
        }
        return fs;
    }

    /** A node hands committed batches to its state machine: the first to reach an offset extends the replay. */
    void onCommitted(List<RecordBatch> batches) {
        for (RecordBatch batch : batches) {
            long end = replayed.last().committedEndOffset();
            if (batch.getBaseOffset() == end) {
                replayed.append(batch);
            } else if (batch.getBaseOffset() > end) {
                throw new CheckFailure(ImageReplayCheck.NAME, "a committed batch at " + batch.getBaseOffset()
                        + " reached a state machine before the committed log's end " + end + " did");
            }
        }
    }

    /** Every answer among {@code answered} has a code its model knows; every write acknowledged NONE is committed. */
    void requireAcknowledgedCommitted(List<Operation<AdminInput, AdminOutput>> answered) {
        AnswerCodeCheck.check(answered);
        acknowledged.requireReflected(answered);
    }

    /** A broker's machine crashed at a crash point of its file system. */
    void onCrashPoint() {
        crashPointsHit++;
    }

    /** A broker's reconcile pass met a disk error and will be retried. */
    void onReconcileFailed() {
        reconcileFailures++;
    }

    /** An active controller took a voter change's control records from its raft leader to append. */
    void onVoterChangeTaken() {
        voterChangesTaken++;
    }

    /** A node's state machine loaded a snapshot (at a restart, or fetched from the leader). */
    void onSnapshotLoaded() {
        snapshotsLoaded++;
    }

    private void observeRecord(MetadataRecord record, long offset) {
        ids.observe(record, offset);
        acknowledged.observe(record, offset);
        scramCheck.observe(record, offset);
        if (record.hasFenceBroker()) {
            fenceRecords++;
            fencedBrokers.add(record.getFenceBroker().getBrokerId());
        } else if (record.hasUnfenceBroker()) {
            unfenceRecords++;
            if (fencedBrokers.remove(record.getUnfenceBroker().getBrokerId())) {
                unfencesAfterFence++;
            }
        } else if (record.hasRegisterBroker()) {
            registrations++;
        }
    }

    /** A running broker asked to be let go (PENDING_CONTROLLED_SHUTDOWN). */
    void onControlledShutdownBegun() {
        controlledShutdownsBegun++;
    }

    /** The controller let broker {@code brokerId} go: the committed image must show it fenced, leading nothing. */
    void onControlledShutdownCompleted(int brokerId) {
        controlledShutdownsCompleted++;
        ControlledShutdownCheck.check(brokerId, replayed.last());
    }

    void checkDirectories(int brokerId, MetadataImage reconciled, long nowMs, BrokerDirectoryCheck.Offline offline) {
        directoryChecks++;
        BrokerDirectoryCheck.check(brokerId, reconciled, disks.get(brokerId), LOG_DIRS, offline, nowMs,
                STRAY_DELAY_MS, 1);
    }

    /** After every event: each node's image equals the replay at its offset; the committed image is valid. */
    public void afterEvent() {
        List<SimNode> nodes = cluster.nodes();
        if (judged == null) {
            judged = new MetadataImage[nodes.size()];
        }
        for (int i = 0; i < nodes.size(); i++) {
            SimNode node = nodes.get(i);
            NodeRole role = node.role();
            MetadataImage image = role instanceof ControllerRole c ? c.image()
                    : role instanceof BrokerRole b ? b.broker().image() : null;
            if (image != null && judged[i] != image) {
                judged[i] = image;
                imageCheck.observe(node.nodeId(), image);
            }
        }
        MetadataImage committed = replayed.last();
        if (committed != committedJudged) {
            committedJudged = committed;
            PartitionLeaderCheck.check(0, committed);
            TopicCompletenessCheck.check(0, committed);
        }
        admin.afterEvent();
        if (timeline != null) {
            observeBrokers(committed);
        }
    }

    private void observeBrokers(MetadataImage committed) {
        long now = scheduler.nowMs();
        for (SimNode node : cluster.observers()) {
            String state = node.isRunning() && node.role() instanceof BrokerRole b ? b.broker().state().name()
                    : BrokerTimeline.DOWN;
            var registration = committed.cluster().broker(node.nodeId());
            String registered = registration == null ? BrokerTimeline.UNREGISTERED
                    : registration.fenced() ? BrokerTimeline.FENCED : BrokerTimeline.UNFENCED;
            timeline.observeBroker(node.nodeId(), state, registered, now);
        }
    }

    /**
     * At the end of a run: every acknowledged create and delete is in the committed log (each
     * once: ids are never reused), then the admin history is linearizable.
     */
    public void finish() {
        acknowledged.requireReflected(admin.historyOperations());
        scramCheck.requireCommitted();
        admin.finish();
    }

    /**
     * Whether every broker is registered in the committed image. The controllers never
     * unregister a broker, so from then on every broker stays registered, fenced or not.
     */
    boolean allBrokersRegistered() {
        MetadataImage image = replayed.last();
        for (SimNode node : cluster.observers()) {
            if (image.cluster().broker(node.nodeId()) == null) {
                return false;
            }
        }
        return true;
    }

    /** Whether every broker in {@code ids} is registered and unfenced in the committed image and running. */
    boolean allBrokersUnfenced() {
        MetadataImage image = replayed.last();
        for (SimNode node : cluster.observers()) {
            var registration = image.cluster().broker(node.nodeId());
            if (registration == null || registration.fenced()) {
                return false;
            }
            if (!(node.role() instanceof BrokerRole b) || b.broker().state() != BrokerState.RUNNING) {
                return false;
            }
        }
        return true;
    }

    public SystemStats stats() {
        return new SystemStats(admin.callsFinished(), admin.itemsAcknowledged(), admin.topicsCreated(),
                fenceRecords, unfenceRecords, unfencesAfterFence, registrations, ids.idsSeen(), directoryChecks,
                admin.historySize(), admin.unknownOutcomes(), admin.sealedOperations(),
                snapshotWriters.stream().mapToLong(SimSnapshotWriter::registered).sum(), snapshotsLoaded,
                diskFaults.armed(), reconcileFailures, crashPointsHit, controlledShutdownsBegun,
                controlledShutdownsCompleted, admin.answersJudged(), admin.answersDenied(),
                admin.authorization().judged(), admin.authorization().denied(), denialsAudited,
                admin.aclWriter().sent(), admin.aclWriter().denied(), voterChangesTaken, admin.scramWriter().sent(),
                admin.scramWriter().denied(), scramCheck.judged(), scramCheck.acknowledged());
    }
}
