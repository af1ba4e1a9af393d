package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchPartitionRequest;
import io.metaquorum.protocol.FetchPartitionResponse;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.Leader.ParkedFetch;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The leader's side of Fetch: checks the fetcher's epoch and its (offset, last fetched
 * epoch) against the log, answering records, a diverging epoch (the follower truncates),
 * or a snapshot id (the follower is behind the log start); records the fetcher's progress;
 * and parks a fetch that has nothing new until data or the high watermark moves or
 * {@code max_wait_ms} passes, so a commit never waits for a polling interval.
 */
public final class FetchHandler {
    private final CoreContext ctx;
    private long notifiedEndOffset = -1;
    private long notifiedHighWatermark = -1;
    /** The leader role whose parked fetches are not answered yet, or null. */
    private Leader parkingLeader;

    public FetchHandler(CoreContext ctx) {
        this.ctx = ctx;
    }

    public void handleFetchRequest(RaftRequest request, FetchRequest fetch, long nowMs) {
        ErrorCode scope = FetchRpcs.checkScope(ctx.clusterId(), fetch);
        if (scope != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, RaftRpcs.topLevelError(fetch, scope));
            return;
        }
        FetchPartitionRequest p = FetchRpcs.partition(fetch);
        ReplicaKey replica = FetchRpcs.replicaKey(fetch);
        // Replica id -1 is an anonymous observer (KIP-595), e.g. mq-metadata shell --bootstrap-controller:
        // it is served like any fetcher but leaves no progress behind, so it never shows as an observer.
        boolean anonymous = fetch.getReplicaId() == RaftRequest.CLIENT;
        if (p.getFetchOffset() < 0 || p.getLastFetchedEpoch() < 0 || (fetch.getReplicaId() < 0 && !anonymous)
                || fetch.getReplicaId() == ctx.localId() || fetch.getMaxWaitMs() < 0) {
            respond(request, error(ErrorCode.INVALID_REQUEST));
            return;
        }
        if (!(ctx.role() instanceof Leader leader)) {
            respond(request, error(ErrorCode.NOT_LEADER_OR_FOLLOWER));
            return;
        }
        if (p.getCurrentLeaderEpoch() != leader.epoch()) {
            respond(request, error(p.getCurrentLeaderEpoch() < leader.epoch()
                    ? ErrorCode.FENCED_LEADER_EPOCH : ErrorCode.UNKNOWN_LEADER_EPOCH));
            return;
        }
        FetchPartitionResponse.Builder answer = validateOffset(p);
        if (answer != null) {
            if (!anonymous) {
                leader.progress(replica).onContact(nowMs);
            }
            respond(request, answer);
            return;
        }
        if (!anonymous) {
            onValidFetch(leader, replica, p.getFetchOffset(), nowMs);
        }
        // A fetcher with every record but not yet the current high watermark is answered at
        // once: it came back after the high watermark moved (while it was writing the records
        // it had been sent), and parked it would learn of the commit only with the next record
        // or at the end of its wait (observers: brokers applied commits up to 500 ms late).
        // An anonymous fetcher has no progress: it is always parked.
        boolean knowsHighWatermark = anonymous
                || leader.progress(replica).highWatermarkSent() >= leader.highWatermark();
        // An observer is served committed progress only: records not yet committed would make
        // it write (and sync) them during the commit's critical path, then wake again for the
        // high watermark, competing with the voters for the CPU and the disk twice per commit.
        long newDataFrom = leader.isVoter(replica) ? ctx.log().endOffset()
                : Math.min(ctx.log().endOffset(), Math.max(leader.highWatermark(), 0));
        if (p.getFetchOffset() >= newDataFrom && fetch.getMaxWaitMs() > 0 && knowsHighWatermark) {
            long waitMs = Math.min(fetch.getMaxWaitMs(), ctx.config().timeouts().fetchWaitMsMax());
            leader.parkedFetches().put(request.correlationId(), new ParkedFetch(request, nowMs + waitMs));
            parkingLeader = leader;
            return;
        }
        respond(request, records(p.getFetchOffset(), p.getPartitionMaxBytes()));
    }

    /**
     * Records a fetch's progress. Only a voter's, by node id and directory id (KIP-853), moves
     * the high watermark: a reformatted voter, fetching as an observer, holds none of the log
     * the voter it replaces acknowledged.
     */
    private void onValidFetch(Leader leader, ReplicaKey replica, long fetchOffset, long nowMs) {
        leader.progress(replica).onFetch(fetchOffset, ctx.log().endOffset(), nowMs);
        if (leader.isVoter(replica)) {
            leader.markBeginQuorumEpochAcked(replica.id(), nowMs);
            // Before answering, so the answer already carries the commit this fetch made.
            maybeAdvanceHighWatermark(leader);
        }
    }

    /**
     * Moves the high watermark (KIP-595; Raft §5.4.2) to the largest offset that a majority of
     * voters, the leader included, has durably, but only once that is above the epoch start
     * offset, i.e. once an entry of the current epoch is on a majority: counting replicas alone
     * never commits an older epoch's entry (the Figure 8 case of the Raft paper). Never moves
     * backwards.
     */
    void maybeAdvanceHighWatermark(Leader leader) {
        long majorityOffset = majorityOffset(leader.voterEndOffsets());
        if (majorityOffset <= leader.epochStartOffset()) {
            return;
        }
        if (majorityOffset > leader.highWatermark()) {
            leader.setHighWatermark(majorityOffset);
            ctx.commits().advanceTo(majorityOffset);
        }
    }

    /** The largest offset at or below which a majority of the given end offsets lie. */
    private static long majorityOffset(long[] voterEndOffsets) {
        long[] sorted = voterEndOffsets.clone();
        Arrays.sort(sorted);
        // Ascending: the element at index (n - majority) is reached by a majority of voters.
        return sorted[sorted.length - (sorted.length / 2 + 1)];
    }

    /** Null when the fetch position matches the log; else the diverging-epoch or snapshot answer. */
    private FetchPartitionResponse.Builder validateOffset(FetchPartitionRequest p) {
        long offset = p.getFetchOffset();
        int epoch = p.getLastFetchedEpoch();
        long start = ctx.log().startOffset();
        Optional<OffsetAndEpoch> snapshot = ctx.log().latestSnapshot();
        if (offset == 0 && start == 0) {
            return null;
        }
        if (snapshot.isPresent() && (offset < start || offset == start && epoch != snapshot.get().epoch())) {
            return error(ErrorCode.NONE).setSnapshotId(FetchRpcs.snapshotId(snapshot.get()));
        }
        OffsetAndEpoch end = ctx.log().endOffsetForEpoch(epoch);
        if (end.epoch() != epoch || end.offset() < offset) {
            return error(ErrorCode.NONE).setDivergingEpoch(io.metaquorum.protocol.DivergingEpoch.newBuilder()
                    .setEpoch(end.epoch()).setEndOffset(end.offset()));
        }
        return null;
    }

    private FetchPartitionResponse.Builder records(long fetchOffset, int partitionMaxBytes) {
        int maxBytes = partitionMaxBytes > 0 ? Math.min(partitionMaxBytes, ctx.config().limits().fetchBytesMax())
                : ctx.config().limits().fetchBytesMax();
        List<RecordBatch> batches = fetchOffset < ctx.log().endOffset()
                ? ctx.log().read(fetchOffset, maxBytes) : List.of();
        return error(ErrorCode.NONE).addAllBatches(batches);
    }

    private FetchPartitionResponse.Builder error(ErrorCode code) {
        return FetchPartitionResponse.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION).setErrorCode(code)
                .setCurrentLeader(RaftRpcs.leader(ctx.currentLeaderId(), ctx.role().epoch()));
    }

    /**
     * Answers with the high watermark of this leader's epoch only: -1 until it has committed
     * an entry of its own epoch. A high watermark it merely learned as a follower may lie below
     * what another replica already knew, and a restarted replica must never learn a smaller one.
     */
    private void respond(RaftRequest request, FetchPartitionResponse.Builder partition) {
        long highWatermark = -1;
        if (ctx.role() instanceof Leader leader) {
            highWatermark = leader.highWatermark();
            ReplicaKey replica = FetchRpcs.replicaKey((FetchRequest) request.payload());
            if (replica.id() >= 0 && replica.id() != ctx.localId()) {
                leader.progress(replica).onHighWatermarkSent(highWatermark);
            }
        }
        partition.setHighWatermark(highWatermark).setLogStartOffset(ctx.log().startOffset());
        ctx.outbox().sendResponse(request, FetchRpcs.fetchResponse(partition.build()));
    }

    /**
     * Answers parked fetches when their wait is over, a voter's when the log end or the high
     * watermark moved (it needs both: new records to copy, and the commit point to apply), an
     * observer's when the high watermark moved (it is served committed progress only). Voters
     * are answered first: the commit waits for them, not for the observers.
     * Returns the earliest remaining wait deadline.
     */
    long completeParkedFetches(Leader leader, long nowMs) {
        long endOffset = ctx.log().endOffset();
        long highWatermark = ctx.commits().highWatermark();
        boolean committed = highWatermark != notifiedHighWatermark;
        boolean appended = endOffset != notifiedEndOffset;
        notifiedEndOffset = endOffset;
        notifiedHighWatermark = highWatermark;
        long next = Long.MAX_VALUE;
        Iterator<ParkedFetch> it = leader.parkedFetches().values().iterator();
        List<ParkedFetch> due = new ArrayList<>();
        List<ParkedFetch> observersDue = new ArrayList<>();
        while (it.hasNext()) {
            ParkedFetch parked = it.next();
            boolean voter = leader.isVoter(FetchRpcs.replicaKey((FetchRequest) parked.request().payload()));
            if (committed || (voter && appended) || nowMs >= parked.deadlineMs()) {
                (voter ? due : observersDue).add(parked);
                it.remove();
            } else {
                next = Math.min(next, parked.deadlineMs());
            }
        }
        due.addAll(observersDue);
        for (ParkedFetch parked : due) {
            FetchPartitionRequest p = FetchRpcs.partition((FetchRequest) parked.request().payload());
            respond(parked.request(), records(p.getFetchOffset(), p.getPartitionMaxBytes()));
        }
        return next;
    }

    /**
     * Answers the fetches a former leader still holds: it left its epoch for a higher one
     * (a vote, a newer leader) rather than by resigning. Each fetcher learns the epoch and
     * leader this replica knows now at once, instead of after its fetch's wait and request
     * timeout (2.5 s by default).
     */
    public void answerFetchesParkedByFormerLeader() {
        if (parkingLeader == null || ctx.role() == parkingLeader) {
            return;
        }
        for (ParkedFetch parked : parkingLeader.parkedFetches().values()) {
            respond(parked.request(), error(ErrorCode.FENCED_LEADER_EPOCH));
        }
        parkingLeader.parkedFetches().clear();
        parkingLeader = null;
    }

    void answerParkedFetchesNotLeader(Leader leader) {
        for (ParkedFetch parked : leader.parkedFetches().values()) {
            ctx.outbox().sendResponse(parked.request(), FetchRpcs.fetchResponse(error(ErrorCode.NOT_LEADER_OR_FOLLOWER)
                    .setCurrentLeader(RaftRpcs.leader(-1, leader.epoch()))
                    .setHighWatermark(-1).setLogStartOffset(ctx.log().startOffset()).build()));
        }
        leader.parkedFetches().clear();
    }
}
