package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CoreFailures;
import io.metaquorum.sim.check.CheckFailure;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.storage.LogObserver;
import io.metaquorum.sim.storage.SimDisk;
import io.metaquorum.sim.storage.SimRaftLog;
import io.metaquorum.sim.machine.AppendTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs every safety invariant after every event (and on log truncations and snapshots, as
 * they happen). Each running node's records below its high watermark are exposed to the
 * {@link CommittedLog} model, which they must match or extend; then the per-node checks
 * run: {@link SingleLeaderCheck}, {@link EpochCampaignCheck}, {@link ElectionStateCheck}, {@link ProgressCheck}, {@link DurableMajorityCheck},
 * {@link SnapshotCheck}, {@link StateMachineCheck}; then {@link AppendCheck} judges new
 * acknowledgments. A violation throws {@link CheckFailure}.
 *
 * <p>A committed record never disappears: a truncation below the node's own high watermark
 * fails at once (above it, a lagging node may rewrite records that another leader has
 * committed meanwhile; it fetches them again).
 */
public final class InvariantChecker implements LogObserver {
    /** A truncation the core asked for removed the diverging tail ({@link #afterTruncate}). */
    public static final String TRUNCATION_HONORED = "diverging-entry-removed";

    private final SimCluster cluster;
    private final AppendTracker appends;
    private final CommittedLog committed;
    private final long wipeGraceMs;
    private final SingleLeaderCheck singleLeader = new SingleLeaderCheck();
    private final EpochCampaignCheck campaigns = new EpochCampaignCheck();
    private final ElectionStateCheck electionStates = new ElectionStateCheck();
    private final SnapshotCheck snapshots = new SnapshotCheck();
    private final AppendCheck appendCheck = new AppendCheck();
    private final ProgressCheck progress;
    private final DurableMajorityCheck durableMajority;
    private final StateMachineCheck stateMachines;
    private final VoterChangeCheck voterChanges = new VoterChangeCheck();
    private final VoterVoteCheck voterVotes;
    /** Checks a scripted run leaves out by name, to show what the others see without them; empty otherwise. */
    private final Set<String> ignored = new TreeSet<>();
    /** Per node: the leader state whose uncommitted VotersRecords were last counted (incarnation, end, committed end). */
    private final long[][] voterChangesJudgedAt;
    /** Per node: the voter set in force after the previous event it was observed in. */
    private final VoterSet[] votersBefore;
    /** Per node: offsets below this were exposed by the current incarnation. */
    private final long[] exposedEnd;
    private final long[] exposedIncarnation;
    private final long[] snapshotCheckedStart;

    /**
     * @param wipeGraceMs a voter wiped this recently still counts as holding what it last
     *                    reported: the leader may act on a report sent before the wipe
     */
    public InvariantChecker(SimCluster cluster, AppendTracker appends, CommittedLog committed, long wipeGraceMs) {
        this.cluster = cluster;
        this.appends = appends;
        this.committed = committed;
        this.wipeGraceMs = wipeGraceMs;
        int size = cluster.maxNodeId() + 1;
        this.progress = new ProgressCheck(size - 1);
        this.durableMajority = new DurableMajorityCheck(size - 1);
        this.stateMachines = new StateMachineCheck(size - 1);
        this.voterVotes = new VoterVoteCheck(size - 1);
        this.voterChangesJudgedAt = new long[size][3];
        this.votersBefore = new VoterSet[size];
        this.exposedEnd = new long[size];
        this.exposedIncarnation = new long[size];
        this.snapshotCheckedStart = new long[size];
    }

    public CommittedLog committed() {
        return committed;
    }

    /**
     * Leaves check {@code name} out of this run (only {@value VoterVoteCheck#NAME} so far): a
     * scripted self-test shows with it what the checks of the consequences catch when the
     * direct check is not there.
     */
    public void ignore(String name) {
        if (!VoterVoteCheck.NAME.equals(name)) {
            throw new IllegalArgumentException("only " + VoterVoteCheck.NAME + " can be left out, not " + name);
        }
        ignored.add(name);
    }

    /** Checks one running node; {@code status} is its status after the event. */
    public void observe(SimNode node, RaftStatus status, long nowMs) {
        singleLeader.observe(status);
        campaigns.observe(status, this::anyDurableSelfVote);
        if (node.isVoter()) {
            electionStates.observe(status, node.disk().durableElectionState());
        }
        progress.observe(status, node.incarnation(), node.wipeCount());
        expose(node, status.highWatermark(), status.logEndOffset());
        VoterSet voters = node.voterSet();
        if (!ignored.contains(VoterVoteCheck.NAME)) {
            voterVotes.observe(status, listedAsVoter(node, voters), node.removedByPendingChange(),
                    candidate -> candidate >= 1
                    && candidate <= cluster.maxNodeId() && listedAsVoter(node, cluster.node(candidate).voterSet()),
                    "the voter set in force there is " + voters
                    + ", its disk's directory id " + TopicIds.toBase64(node.disk().format().directoryId()));
        }
        VoterSet before = votersBefore[node.nodeId()];
        votersBefore[node.nodeId()] = voters;
        if (durableMajority.wouldCheck(status, node.incarnation())) {
            List<DurableMajorityCheck.Quorum> quorums = new ArrayList<>();
            quorums.add(new DurableMajorityCheck.Quorum((offset, e) -> durableHolders(offset, e, nowMs, voters),
                    voters.majority()));
            if (before != null && !before.equals(voters)) {
                // The set changed in this event: the high watermark may have moved under the one before.
                quorums.add(new DurableMajorityCheck.Quorum((offset, e) -> durableHolders(offset, e, nowMs, before),
                        before.majority()));
            }
            durableMajority.observe(status, epochBelow(node, status.highWatermark()), quorums);
        }
        if (status.isLeader()) {
            judgeVoterChanges(node, status);
        }
        int id = node.nodeId();
        if (snapshotCheckedStart[id] != status.logStartOffset()
                && snapshots.observe(id, status.logStartOffset(), node.log().latestSnapshot(), committed)) {
            // Judged; one beyond the committed prefix is asked about again after every event until it is.
            snapshotCheckedStart[id] = status.logStartOffset();
        }
        stateMachines.observe(id, node.incarnation(), node.stateMachine().appliedOffset(),
                node.stateMachine().digest(), committed);
    }

    /** After all nodes were observed: judges the acknowledgments made during the event. */
    public void afterEvent() {
        appendCheck.onAcked(appends.drainAcked(), committed);
    }

    /** At the end of a run. */
    public void finish() {
        appendCheck.onAcked(appends.drainAcked(), committed);
        appendCheck.requireAllJudged();
        for (SimNode node : cluster.running()) {
            snapshots.requireJudged(node.nodeId(), node.log().startOffset(), node.log().latestSnapshot(), committed);
        }
    }

    public int leaderEpochCount() {
        return singleLeader.leaderEpochCount();
    }

    @Override
    public void beforeTruncate(SimRaftLog log, long offset) {
        int id = log.nodeId();
        exposedEnd[id] = Math.min(exposedEnd[id], offset);
        // A node may rewrite what lies above its own high watermark, even records committed
        // elsewhere meanwhile (it will fetch them again); below it, nothing may go.
        long highWatermark = cluster.node(id).status().highWatermark();
        if (offset < highWatermark) {
            Optional<RecordBatch> batch = log.batchHolding(offset);
            throw new CheckFailure("committed-entry-stable", "node " + id + " truncates its log to " + offset
                    + ", below its high watermark " + highWatermark + ", removing committed records"
                    + batch.map(b -> " (epoch " + b.getEpoch() + " at " + offset + ")").orElse(""));
        }
    }

    /**
     * The core truncates a diverging tail (its leader's answer named the epoch where the logs
     * part) and fetches from the new end; the log must hold nothing at or above that offset
     * once {@code truncateTo} returned, or the diverging entry is fetched past and kept.
     */
    @Override
    public void afterTruncate(SimRaftLog log, long offset) {
        if (log.endOffset() > offset) {
            Optional<RecordBatch> kept = log.batchHolding(offset);
            throw new CheckFailure(TRUNCATION_HONORED, "node " + log.nodeId() + " truncated its log to " + offset
                    + " but it still ends at " + log.endOffset() + ": the diverging entry at " + offset
                    + kept.map(b -> " (epoch " + b.getEpoch() + ")").orElse("") + " remains");
        }
    }

    /** A LeaderChange record names the leader of its epoch: one more witness for {@link SingleLeaderCheck}. */
    @Override
    public void afterAppend(SimRaftLog log, RecordBatch batch) {
        if (!batch.getControl()) {
            return;
        }
        for (ByteString record : RecordBatches.records(batch)) {
            ControlRecord control = parseControl(record, log.nodeId(), batch.getBaseOffset());
            if (control.hasLeaderChange()) {
                singleLeader.observeLeaderRecord(batch.getEpoch(), control.getLeaderChange().getLeaderId(),
                        log.nodeId());
            }
        }
    }

    /** A control record a node appended; one that does not parse is {@value CoreFailures#EXCEPTION}. */
    static ControlRecord parseControl(ByteString record, int nodeId, long baseOffset) {
        try {
            return ControlRecord.parseFrom(record);
        } catch (InvalidProtocolBufferException e) {
            throw new CheckFailure(CoreFailures.EXCEPTION, "node " + nodeId + " appended a control batch at " + baseOffset
                    + " that does not parse: " + e.getMessage());
        }
    }

    @Override
    public void beforeSnapshotInstalled(SimRaftLog log, OffsetAndEpoch id) {
        // The records below the snapshot are about to go: expose the committed ones first.
        SimNode node = cluster.node(log.nodeId());
        long applied = node.stateMachine().appliedOffset();
        expose(node, Math.min(applied, id.offset()), log.endOffset());
    }

    private void expose(SimNode node, long highWatermark, long logEndOffset) {
        int id = node.nodeId();
        if (exposedIncarnation[id] != node.incarnation()) {
            exposedIncarnation[id] = node.incarnation();
            exposedEnd[id] = 0;
            snapshotCheckedStart[id] = -1;
        }
        if (highWatermark < 0) {
            return;
        }
        SimRaftLog log = node.log();
        long upTo = Math.min(highWatermark, logEndOffset);
        long from = Math.max(exposedEnd[id], log.startOffset());
        while (from < upTo) {
            RecordBatch batch = log.batchHolding(from).orElseThrow();
            long to = Math.min(RecordBatches.endOffset(batch), upTo);
            long reached = committed.expose(id, batch, from, to);
            from = reached;
            if (reached < to) {
                break;
            }
        }
        exposedEnd[id] = Math.max(exposedEnd[id], from);
    }

    /**
     * The epoch of the record just below {@code offset} on {@code node}: from its log, or, if
     * a snapshot already covers it, from the committed model (exposed before the snapshot).
     */
    private int epochBelow(SimNode node, long offset) {
        Optional<RecordBatch> batch = node.log().batchHolding(offset - 1);
        if (batch.isPresent()) {
            return batch.get().getEpoch();
        }
        return offset <= committed.committedEndOffset() ? committed.committedEpochAt(offset - 1) : -1;
    }

    /** Over every node: at kraft.version 1 any node may be a voter of some voter set, not only the first ones. */
    private boolean anyDurableSelfVote(int epoch) {
        for (SimNode node : cluster.nodes()) {
            ElectionState state = node.disk().durableElectionState();
            if (state != null && state.epoch() == epoch && state.votedId() == node.nodeId()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The voters whose disks hold the record durably; a voter wiped within the grace counts if
     * the disk the wipe replaced held it (a fetch it sent before the wipe may reach the leader
     * after it), never for what it did not hold.
     */
    private int durableHolders(long offset, int epoch, long nowMs, VoterSet voters) {
        int count = 0;
        for (VoterSet.Voter listed : voters.voters()) {
            if (listed.key().id() < 1 || listed.key().id() > cluster.maxNodeId()) {
                continue;
            }
            SimNode voter = cluster.node(listed.key().id());
            SimDisk disk = voter.disk();
            if (listed.key().hasDirectoryId()) {
                // The listed replica is the disk of that directory id: the current one, or the one
                // the last wipe destroyed (the leader may count what it acknowledged before), never
                // a disk formatted since, which is another replica.
                if (listed.key().directoryId().equals(disk.format().directoryId())
                        ? disk.durablyStores(offset, epoch)
                        : listed.key().directoryId().equals(disk.formatBeforeLastWipe().directoryId())
                                && disk.storedBeforeLastWipe(offset, epoch)) {
                    count++;
                }
                continue;
            }
            boolean recentlyWiped = voter.lastWipeAtMs() != Long.MIN_VALUE && nowMs - voter.lastWipeAtMs() <= wipeGraceMs;
            if (disk.durablyStores(offset, epoch) || (recentlyWiped && disk.storedBeforeLastWipe(offset, epoch))) {
                count++;
            }
        }
        return count;
    }

    /**
     * Whether {@code voters} lists {@code node} as a voter: with its disk's directory id, or
     * by node id alone in a voter set without directory ids (kraft.version 0).
     */
    private static boolean listedAsVoter(SimNode node, VoterSet voters) {
        if (voters == null) {
            return false;
        }
        if (!voters.hasDirectoryIds()) {
            return voters.hasId(node.nodeId());
        }
        return node.listedWithOwnDisk(voters);
    }

    /**
     * {@link VoterChangeCheck} on a leader: the VotersRecords of its log at or above what is
     * committed (its high watermark, or the committed prefix if that reaches further). Counted
     * again only when the log end or that bound moved.
     */
    private void judgeVoterChanges(SimNode node, RaftStatus status) {
        long from = Math.max(Math.max(status.highWatermark(), committed.committedEndOffset()), status.logStartOffset());
        long[] judged = voterChangesJudgedAt[node.nodeId()];
        if (judged[0] == node.incarnation() && judged[1] == status.logEndOffset() && judged[2] == from) {
            return;
        }
        judged[0] = node.incarnation();
        judged[1] = status.logEndOffset();
        judged[2] = from;
        List<Long> pending = new ArrayList<>();
        SimRaftLog log = node.log();
        long offset = from;
        while (offset < log.endOffset()) {
            Optional<RecordBatch> batch = log.batchHolding(offset);
            if (batch.isEmpty()) {
                break;
            }
            RecordBatch b = batch.get();
            if (b.getControl()) {
                List<ByteString> records = RecordBatches.records(b);
                for (int i = 0; i < records.size(); i++) {
                    long at = b.getBaseOffset() + i;
                    if (at >= from && parseControl(records.get(i), node.nodeId(), b.getBaseOffset()).hasVoters()) {
                        pending.add(at);
                    }
                }
            }
            offset = RecordBatches.endOffset(b);
        }
        voterChanges.observe(node.nodeId(), status.epoch(), from, pending);
    }
}
