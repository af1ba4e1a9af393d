package io.metaquorum.raft.core.handler;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetching side, for followers and observers: one Fetch (or FetchSnapshot) in flight
 * to the leader, sent only once everything appended is flushed so the fetch offset it
 * reports is durable; records appended, divergence truncated, high watermark learned.
 * An observer without a usable leader asks the voters in turn who leads.
 */
public final class FollowerFetcher {
    private static final Logger LOG = LoggerFactory.getLogger(FollowerFetcher.class);

    private final CoreContext ctx;
    private final SnapshotDownloader snapshots;
    private long discoveryCorrelationId = -1;
    private long nextDiscoveryMs;
    private int discoveryIndex;

    public FollowerFetcher(CoreContext ctx) {
        this.ctx = ctx;
        this.snapshots = new SnapshotDownloader(ctx);
    }

    /** Sends the next fetch if one is due; returns the next deadline. */
    public long poll(long nowMs) {
        boolean observer = !ctx.isLocalVoter();
        if (ctx.role() instanceof Follower f && !(observer && f.hasLostLeader(nowMs))) {
            return pollFollower(f, nowMs);
        }
        // A leader that removed itself resigns as an observer: no leader will send it BeginQuorumEpoch.
        if (observer && (ctx.role() instanceof Unattached || ctx.role() instanceof Follower
                || ctx.role() instanceof Resigned)) {
            return pollDiscovery(nowMs);
        }
        return Long.MAX_VALUE;
    }

    private long pollFollower(Follower f, long nowMs) {
        if (f.hasInflightRequest() || ctx.log().hasUnflushed()) {
            return Long.MAX_VALUE;
        }
        if (nowMs < f.nextFetchMs()) {
            return f.nextFetchMs();
        }
        if (f.snapshotInProgress() != null) {
            f.markInflight(snapshots.sendChunkRequest(f, nowMs));
            return Long.MAX_VALUE;
        }
        int maxWaitMs = ctx.config().timeouts().fetchWaitMsMax();
        FetchPartitionRequest partition = FetchPartitionRequest.newBuilder()
                .setPartitionIndex(TopicIds.METADATA_PARTITION).setCurrentLeaderEpoch(f.epoch())
                .setFetchOffset(ctx.log().endOffset()).setLastFetchedEpoch(ctx.log().lastEpoch())
                .setLogStartOffset(ctx.log().startOffset()).setReplicaDirectoryId(ctx.localKey().directoryId())
                .setPartitionMaxBytes(ctx.config().limits().fetchBytesMax()).build();
        long deadline = nowMs + maxWaitMs + ctx.config().timeouts().requestTimeoutMs();
        f.markInflight(ctx.outbox().sendRequest(f.leaderId(),
                FetchRpcs.fetchRequest(ctx.clusterId(), ctx.localId(), maxWaitMs, partition), f.epoch(), deadline));
        return Long.MAX_VALUE;
    }

    private long pollDiscovery(long nowMs) {
        if (discoveryCorrelationId >= 0) {
            return Long.MAX_VALUE;
        }
        if (nowMs < nextDiscoveryMs) {
            return nextDiscoveryMs;
        }
        List<Integer> voters = discoveryVoters();
        if (voters.isEmpty()) {
            return Long.MAX_VALUE;
        }
        int voterId = voters.get(discoveryIndex++ % voters.size());
        FetchPartitionRequest partition = FetchPartitionRequest.newBuilder()
                .setPartitionIndex(TopicIds.METADATA_PARTITION).setCurrentLeaderEpoch(ctx.role().epoch())
                .setFetchOffset(ctx.log().endOffset()).setLastFetchedEpoch(ctx.log().lastEpoch())
                .setLogStartOffset(ctx.log().startOffset()).setReplicaDirectoryId(ctx.localKey().directoryId())
                .setPartitionMaxBytes(1).build();
        discoveryCorrelationId = ctx.outbox().sendRequest(voterId,
                FetchRpcs.fetchRequest(ctx.clusterId(), ctx.localId(), 0, partition), ctx.role().epoch(),
                ctx.requestDeadline(nowMs));
        return Long.MAX_VALUE;
    }

    /**
     * Whom an observer asks for the leader: the voters of the active set, else those of
     * {@code controller.quorum.voters}, never itself. The active set may name no one else: a
     * replica formatted to join knows no set yet, and a wiped voter that fetched only part of
     * the log may hold a set from when its node id (under its old directory) was the only
     * voter; asking no one, it would never fetch again.
     */
    private List<Integer> discoveryVoters() {
        List<Integer> active = othersOf(ctx.voters().ids());
        return active.isEmpty() ? othersOf(ctx.config().voterIds()) : active;
    }

    private List<Integer> othersOf(List<Integer> ids) {
        return ids.stream().filter(id -> id != ctx.localId()).toList();
    }

    public void handleFetchResponse(long correlationId, FetchResponse response, long nowMs) {
        if (correlationId == discoveryCorrelationId) {
            discoveryCorrelationId = -1;
            nextDiscoveryMs = nowMs + ctx.config().timeouts().retryBackoffMs();
            FetchRpcs.partition(response).ifPresent(p -> onDiscoveryAnswer(p, nowMs));
            return;
        }
        if (!(ctx.role() instanceof Follower f) || f.inflightCorrelationId() != correlationId) {
            return;
        }
        f.clearInflight();
        var partition = FetchRpcs.partition(response);
        if (response.getErrorCode() != ErrorCode.NONE || partition.isEmpty()) {
            logTopLevelError(response.getErrorCode());
            f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
            return;
        }
        FetchPartitionResponse p = partition.get();
        if (ctx.observeLeader(p.getCurrentLeader().getLeaderEpoch(), p.getCurrentLeader().getLeaderId(), nowMs)) {
            return;
        }
        handlePartition(f, p, nowMs);
    }

    private void onDiscoveryAnswer(FetchPartitionResponse p, long nowMs) {
        int leaderId = p.getCurrentLeader().getLeaderId();
        int epoch = p.getCurrentLeader().getLeaderEpoch();
        if (!ctx.observeLeader(epoch, leaderId, nowMs) && ctx.role() instanceof Follower f
                && f.epoch() == epoch && f.leaderId() == leaderId) {
            // The leader we lost is still the leader: try it again (observers only; they never vote).
            f.onLeaderHeard(nowMs + ctx.config().timeouts().fetchTimeoutMs());
        }
    }

    private void handlePartition(Follower f, FetchPartitionResponse p, long nowMs) {
        if (p.getErrorCode() == ErrorCode.NOT_LEADER_OR_FOLLOWER && p.getCurrentLeader().getLeaderEpoch() == f.epoch()) {
            onLeaderResigned(f, nowMs);
            return;
        }
        if (p.getErrorCode() != ErrorCode.NONE) {
            f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
            return;
        }
        f.onLeaderHeard(nowMs + ctx.config().timeouts().fetchTimeoutMs());
        if (p.hasSnapshotId()) {
            OffsetAndEpoch id = FetchRpcs.offsetAndEpoch(p.getSnapshotId());
            f.startSnapshotDownload(id, ctx.log().createSnapshot(id));
        } else if (p.hasDivergingEpoch()) {
            // No high watermark from this answer: the log left after truncating may still
            // diverge further back, which only the next validated fetch can tell.
            truncate(new OffsetAndEpoch(p.getDivergingEpoch().getEndOffset(), p.getDivergingEpoch().getEpoch()));
        } else if (!appendBatches(p)) {
            f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
        } else if (p.getHighWatermark() >= 0) {
            // The leader validated this fetch at our log end, so our whole log matches its
            // (Log Matching): every offset below min(its high watermark, our end) is committed.
            ctx.commits().advanceTo(Math.min(p.getHighWatermark(), ctx.log().endOffset()));
        }
    }

    /**
     * The leader answered that it no longer leads its epoch: it resigned. Its EndQuorumEpoch
     * tells each successor when to campaign (the most caught up at once); this is only the
     * fallback should that request be lost, so it waits a whole election timeout and does not
     * race the preferred successor.
     */
    private void onLeaderResigned(Follower f, long nowMs) {
        f.markLeaderResigned();
        f.delayNextFetch(nowMs + ctx.config().timeouts().retryBackoffMs());
        if (ctx.isLocalVoter()) {
            f.resetFetchDeadline(Math.min(f.fetchDeadlineMs(), nowMs + ctx.roles().timers().electionTimeoutMs()));
        }
    }

    private void truncate(OffsetAndEpoch diverging) {
        OffsetAndEpoch local = ctx.log().endOffsetForEpoch(diverging.epoch());
        long target = Math.min(diverging.offset(), local.offset());
        Invariants.check(target >= ctx.commits().highWatermark(),
                "node %d: diverging epoch %s would truncate to %d below the high watermark %d", ctx.localId(),
                diverging, target, ctx.commits().highWatermark());
        LOG.info("[node {}] log diverges from the leader's at epoch {}: truncating {} -> {}", ctx.localId(),
                diverging.epoch(), ctx.log().endOffset(), target);
        ctx.log().truncateTo(target);
    }

    /** Appends the fetched batches; false if the leader sent something that fails its check. */
    private boolean appendBatches(FetchPartitionResponse p) {
        for (RecordBatch batch : p.getBatchesList()) {
            if (!RecordBatches.isValid(batch)) {
                LOG.warn("[node {}] fetched batch at offset {} fails its CRC; fetching again", ctx.localId(),
                        batch.getBaseOffset());
                return false;
            }
            long end = ctx.log().endOffset();
            if (RecordBatches.endOffset(batch) <= end) {
                continue;
            }
            RecordBatch appended = batch.getBaseOffset() < end ? fromLogEnd(batch, end) : batch;
            Invariants.check(appended.getBaseOffset() == end, "node %d: fetched batch at %d does not start at log end %d",
                    ctx.localId(), appended.getBaseOffset(), end);
            ctx.log().append(appended);
        }
        return true;
    }

    /**
     * The records of {@code batch} from {@code end} on. A truncation cuts the batch it lands in
     * ({@link io.metaquorum.raft.storage.RaftLog#truncateTo}), so this log's batch boundaries may
     * differ from the leader's, whose batch holding our end can start below it. The leader found
     * no divergence at our end and last epoch, so the records below the end are ours already.
     */
    private RecordBatch fromLogEnd(RecordBatch batch, long end) {
        Invariants.check(batch.getEpoch() == ctx.log().lastEpoch(), "node %d: fetched batch at %d of epoch %d overlaps "
                + "log end %d of epoch %d", ctx.localId(), batch.getBaseOffset(), batch.getEpoch(), end,
                ctx.log().lastEpoch());
        return RecordBatches.dropBefore(batch, end);
    }

    public void handleFetchFailure(RequestFailure failure, long nowMs) {
        if (failure.correlationId() == discoveryCorrelationId) {
            discoveryCorrelationId = -1;
            nextDiscoveryMs = nowMs + ctx.config().timeouts().retryBackoffMs();
            return;
        }
        if (!(ctx.role() instanceof Follower f) || f.inflightCorrelationId() != failure.correlationId()) {
            return;
        }
        f.clearInflight();
        boolean unreachable = failure.reason() == RequestFailure.Reason.UNREACHABLE;
        boolean confirmed = unreachable && f.confirmsLeaderUnreachable();
        // A first reset is answered by reconnecting at once: a dead leader's port refuses the
        // connection within a round trip, a live leader accepts it.
        f.delayNextFetch(unreachable && f.isFirstUnreachableFailure() ? nowMs
                : nowMs + ctx.config().timeouts().retryBackoffMs());
        if (confirmed) {
            f.markLeaderUnreachable();
            long delay = ctx.isLocalVoter() ? ctx.roles().timers().unreachableLeaderDelayMs(survivorRank(f)) : 0;
            f.resetFetchDeadline(Math.min(f.fetchDeadlineMs(), nowMs + delay));
        }
    }

    /** How many voters other than the lost leader have a lower id than this one. */
    private int survivorRank(Follower f) {
        return (int) ctx.voters().ids().stream()
                .filter(id -> id != f.leaderId() && id < ctx.localId())
                .count();
    }

    public SnapshotDownloader snapshots() {
        return snapshots;
    }

    private void logTopLevelError(ErrorCode error) {
        if (error == ErrorCode.INCONSISTENT_CLUSTER_ID) {
            LOG.error("[node {}] the leader belongs to another cluster (INCONSISTENT_CLUSTER_ID)", ctx.localId());
        }
    }

    static FetchSnapshotPartitionRequest.Builder snapshotRequest() {
        return FetchSnapshotPartitionRequest.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION);
    }
}
