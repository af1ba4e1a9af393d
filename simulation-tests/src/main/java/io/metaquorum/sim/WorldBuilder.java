package io.metaquorum.sim;

import io.metaquorum.sim.trace.TraceHash;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.sim.clock.NodeClock;
import io.metaquorum.sim.clock.SimClock;
import io.metaquorum.sim.cluster.NodeEnvironment;
import io.metaquorum.sim.cluster.NodeSetup;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.invariant.CommittedLog;
import io.metaquorum.sim.invariant.InvariantChecker;
import io.metaquorum.sim.mutation.MutantClassLoader;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.storage.LogObserver;
import io.metaquorum.sim.storage.DiskFormatter;
import io.metaquorum.sim.storage.SimDisk;
import io.metaquorum.sim.storage.SimRaftLog;
import io.metaquorum.sim.system.world.MetadataLogModel;
import io.metaquorum.sim.system.world.SystemWorld;
import io.metaquorum.sim.timeline.TimelineRecorder;
import io.metaquorum.sim.machine.AppendTracker;
import io.metaquorum.sim.workload.ClientWorkload;
import io.metaquorum.sim.workload.FaultInjector;
import io.metaquorum.sim.workload.FaultKind;
import io.metaquorum.sim.workload.FaultListener;
import io.metaquorum.sim.workload.FaultProfile;
import io.metaquorum.sim.workload.KeyValueModel;
import io.metaquorum.sim.machine.StateMachineModel;
import io.metaquorum.sim.workload.WorkloadProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Builds a {@link World} from {@link SimulationOptions}. Every random choice of a run flows
 * from one {@code new Random(seed)}: it draws, in a fixed order, the seeds of the streams
 * for the profiles, the network, the faults, the workload, the liveness phase, each
 * node's process and disk, the silent faults (pauses, black holes), the system layer (in
 * system mode) and last the bad certificates (drawn in the order the faults came), so adding
 * a draw to one stream never shifts another.
 */
final class WorldBuilder {
    static final String CLUSTER_ID = "sim-cluster";
    static final int PENDING_EVENTS_MAX = 1_000_000;

    private WorldBuilder() {
    }

    static World build(SimulationOptions options, StateMachineModel requestedModel) {
        // In system mode the log holds the controller's metadata records, whatever model was asked for.
        StateMachineModel model = options.system() ? new MetadataLogModel() : requestedModel;
        Random master = new Random(options.seed());
        Random profileRandom = new Random(master.nextLong());
        Random networkRandom = new Random(master.nextLong());
        Random faultRandom = new Random(master.nextLong());
        Random workloadRandom = new Random(master.nextLong());
        Random livenessRandom = new Random(master.nextLong());
        RaftTimeouts timeouts = RaftTimeouts.DEFAULTS;
        FaultProfile faultProfile = FaultProfile.draw(options.faults(), options.swarm(), profileRandom, timeouts);
        WorkloadProfile workloadProfile = WorkloadProfile.draw(profileRandom);
        RaftLimits limits = drawLimits(profileRandom);
        EventScheduler scheduler = new EventScheduler(new SimClock(), PENDING_EVENTS_MAX);
        TraceHash trace = new TraceHash();
        int nodeCount = options.voters() + options.observers();
        SimNetwork network = new SimNetwork(scheduler, networkRandom, trace, nodeCount, faultProfile.network());
        AppendTracker appends = new AppendTracker();
        LifecycleFanout lifecycle = new LifecycleFanout();
        DeferredLogObserver logObserver = new DeferredLogObserver();
        List<Integer> voterIds = IntStream.rangeClosed(1, options.voters()).boxed().toList();
        BrokenVariant variant = options.variant();
        Invariants.check(variant.mutation() == null
                        || variant.mutation().equals(MutantClassLoader.mutationOf(WorldBuilder.class)),
                "variant %s needs its mutation: run it in its mutant world (mq-simulate --broken,"
                        + " BrokenRuleRuns.outcome)", variant.cliName());
        SystemWorld system = options.system() ? new SystemWorld(CLUSTER_ID, scheduler,
                variant == BrokenVariant.REPLY_BEFORE_COMMIT) : null;
        // In system mode the loaders take the snapshots (SystemWorld draws their trigger), not the raft-mode policy.
        int snapshotInterval = system == null ? workloadProfile.snapshotIntervalRecords() : 0;
        NodeSetup setup = new NodeSetup(CLUSTER_ID, voterIds, timeouts, limits, variant.logMode(),
                variant.persistsVotes(), model, snapshotInterval, 5_000, logObserver, appends,
                variant::rewriteOutbound, system);
        NodeEnvironment environment = new NodeEnvironment(scheduler, network, appends, lifecycle);
        List<SimNode> nodes = newNodes(options, setup, environment, faultProfile, master, profileRandom);
        Random silentRandom = new Random(master.nextLong());
        faultProfile = faultProfile.withSilentFaults(options.faults(), options.swarm(), silentRandom);
        SimCluster cluster = new SimCluster(nodes);
        if (system != null) {
            // Drawn after every raft-mode stream, so that raft-only runs are unchanged.
            system.attach(cluster, network, new Random(master.nextLong()));
        }
        // Drawn after every other stream, so that a seed without bad certificates runs as it did before them.
        Random certificateRandom = new Random(master.nextLong());
        faultProfile = faultProfile.withBadCertificates(options.faults(), options.swarm(), certificateRandom);
        // Drawn after the certificates' stream, for the same reason.
        Random diskFullRandom = new Random(master.nextLong());
        faultProfile = faultProfile.withDiskFull(options.faults(), options.swarm(), diskFullRandom);
        if (system != null && faultProfile.has(FaultKind.DISK_FULL)) {
            system.fillDisksWith(diskFullRandom);
        }
        Random membershipRandom = atKraftVersion1(cluster, master);
        faultProfile = faultProfile.withMembership(options.faults(), options.swarm(), membershipRandom);
        CommittedLog committed = committedLogOf(model);
        InvariantChecker checker = new InvariantChecker(cluster, appends, committed,
                timeouts.requestTimeoutMs() + timeouts.fetchWaitMsMax());
        logObserver.setTarget(checker);
        TimelineRecorder timeline = options.recordTimeline() ? newTimeline(nodes) : null;
        FaultListener faultListener = timeline == null ? FaultListener.NONE : timeline;
        if (system != null && timeline != null) {
            system.recordTimeline(timeline.system());
        }
        FaultInjector faults = new FaultInjector(scheduler, network, faultRandom, silentRandom, certificateRandom,
                membershipRandom, faultProfile, faultListener);
        faults.attach(cluster);
        lifecycle.setTarget(faults);
        ClientWorkload workload = new ClientWorkload(scheduler, cluster, appends, model, workloadRandom,
                workloadProfile);
        return new World(scheduler, trace, network, cluster, appends, checker, faults, workload, faultProfile,
                workloadProfile, livenessRandom, timeline, lifecycle, timeouts, system);
    }

    /** Every node, each drawing its process's and disk's streams from {@code master} and its clock from {@code profileRandom}. */
    private static List<SimNode> newNodes(SimulationOptions options, NodeSetup setup, NodeEnvironment environment,
                                          FaultProfile faultProfile, Random master, Random profileRandom) {
        List<SimNode> nodes = new ArrayList<>();
        for (int id = 1; id <= options.voters() + options.observers(); id++) {
            Random nodeRandom = new Random(master.nextLong());
            SimDisk disk = new SimDisk(id, new Random(master.nextLong()), faultProfile.disk());
            int drift = faultProfile.schedule().driftPpmMax() == 0 ? 0
                    : profileRandom.nextInt(2 * faultProfile.schedule().driftPpmMax() + 1)
                    - faultProfile.schedule().driftPpmMax();
            long skew = (long) (profileRandom.nextDouble() * faultProfile.schedule().skewMaxMs());
            nodes.add(new SimNode(id, id <= options.voters(), setup, disk, new NodeClock(skew, drift), nodeRandom,
                    environment));
        }
        return nodes;
    }

    /**
     * Every run is at kraft.version 1: the disks formatted with directory ids; returns the
     * stream of the voter changes. In system mode the voter changes reach the controller as
     * production's do (the raft leader hands their VotersRecords to it to append).
     */
    private static Random atKraftVersion1(SimCluster cluster, Random master) {
        // Drawn after the disk-full stream (the last of every other): the directory ids of every
        // format, the wipes' too; then the voter changes' stream, returned.
        formatDisks(cluster, new DiskFormatter(new Random(master.nextLong())));
        return new Random(master.nextLong());
    }

    /**
     * {@code mq-storage format --initial-controllers} on every disk (kraft.version 1): each
     * gets a directory id, the voters' ids make the initial voter set, and a wiped disk is
     * reformatted with a new one.
     */
    private static void formatDisks(SimCluster cluster, DiskFormatter formatter) {
        List<SimDisk> voters = new ArrayList<>();
        List<SimDisk> observers = new ArrayList<>();
        for (SimNode node : cluster.nodes()) {
            (node.isVoter() ? voters : observers).add(node.disk());
        }
        formatter.formatInitial(voters, observers);
    }

    private static CommittedLog committedLogOf(StateMachineModel model) {
        CommittedLog committed = new CommittedLog(model);
        if (model instanceof MetadataLogModel metadata) {
            metadata.bindCommittedLog(committed);
        }
        return committed;
    }

    static StateMachineModel defaultModel() {
        return new KeyValueModel(64);
    }

    /** Small limits, so that fetches span several round trips and snapshots several chunks. */
    private static RaftLimits drawLimits(Random random) {
        int fetchBytesMax = 1024 + random.nextInt(64 * 1024);
        int batchRecordsMax = 8 + random.nextInt(120);
        int batchBytesMax = Math.min(fetchBytesMax, 512 + random.nextInt(16 * 1024));
        int queueRecordsMax = batchRecordsMax + random.nextInt(4096);
        int snapshotChunkBytes = 64 + random.nextInt(8 * 1024);
        return new RaftLimits(fetchBytesMax, snapshotChunkBytes, batchRecordsMax, batchBytesMax, queueRecordsMax,
                1L << 30);
    }

    private static TimelineRecorder newTimeline(List<SimNode> nodes) {
        int[] ids = new int[nodes.size()];
        boolean[] voters = new boolean[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            ids[i] = nodes.get(i).nodeId();
            voters[i] = nodes.get(i).isVoter();
        }
        return new TimelineRecorder(ids, voters);
    }

    /** The checker needs the cluster, the nodes need the checker: this breaks the cycle. */
    private static final class DeferredLogObserver implements LogObserver {
        private LogObserver target = LogObserver.NONE;

        void setTarget(LogObserver observer) {
            this.target = observer;
        }

        @Override
        public void beforeTruncate(SimRaftLog log, long offset) {
            target.beforeTruncate(log, offset);
        }

        @Override
        public void afterTruncate(SimRaftLog log, long offset) {
            target.afterTruncate(log, offset);
        }

        @Override
        public void afterAppend(SimRaftLog log, RecordBatch batch) {
            target.afterAppend(log, batch);
        }

        @Override
        public void beforeSnapshotInstalled(SimRaftLog log, OffsetAndEpoch id) {
            target.beforeSnapshotInstalled(log, id);
        }
    }
}
