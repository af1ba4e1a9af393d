package io.metaquorum.raft.core.handler;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.KRaftVersionRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.context.Outbox;
import io.metaquorum.raft.core.role.AppendQueue;
import io.metaquorum.raft.core.role.Candidate;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's duties: taking office (LeaderChange record, BeginQuorumEpoch to every
 * voter), turning queued appends into batches, moving the high watermark, answering
 * parked fetches when something changed, and check-quorum (resign when a majority of
 * voters has not fetched for 1.5 x the fetch timeout).
 */
public final class LeaderCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderCoordinator.class);
    private static final double CHECK_QUORUM_TIMEOUT_FACTOR = 1.5;

    private final CoreContext ctx;
    private final FetchHandler fetches;

    public LeaderCoordinator(CoreContext ctx, FetchHandler fetches) {
        this.ctx = ctx;
        this.fetches = fetches;
    }

    public long checkQuorumTimeoutMs() {
        return (long) (ctx.config().timeouts().fetchTimeoutMs() * CHECK_QUORUM_TIMEOUT_FACTOR);
    }

    void becomeLeader(long nowMs) {
        Candidate candidate = (Candidate) ctx.role();
        List<Integer> granting = candidate.tally().grantingVoters();
        List<ByteString> records = new ArrayList<>(bootstrapRecords());
        // The LeaderChangeRecord is the batch's last record: the state machine's records follow it
        // (RaftListener.handleBecomeLeader names its offset as the epoch start).
        long leaderChangeOffset = ctx.log().endOffset() + records.size();
        Leader leader = ctx.roles().toLeader(leaderChangeOffset, nowMs, checkQuorumTimeoutMs(),
                beginQuorumEpochResendMs());
        ControlRecord change = ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord.newBuilder()
                .setLeaderId(ctx.localId()).addAllVoters(leader.voterSet().ids()).addAllGrantingVoters(granting))
                .build();
        records.add(change.toByteString());
        ctx.log().append(RecordBatches.build(ctx.log().endOffset(), leader.epoch(), nowMs, true, records));
    }

    /**
     * The formatted initial voters, for the first leader of a quorum that keeps its voter set
     * in the log (kraft.version 1) while the log names none yet: from then on the log is where
     * every replica, a new or reformatted one included, learns the voter set (KIP-853).
     */
    private List<ByteString> bootstrapRecords() {
        if (ctx.config().kraftVersion() == 0 || ctx.voterHistory().logNamesVoters()) {
            return List.of();
        }
        ControlRecord version = ControlRecord.newBuilder().setKraftVersion(KRaftVersionRecord.newBuilder()
                .setKraftVersion(ctx.config().kraftVersion())).build();
        ControlRecord voters = ControlRecord.newBuilder().setVoters(ctx.voters().toRecord()).build();
        return List.of(version.toByteString(), voters.toByteString());
    }

    /**
     * Queues {@code records} as one atomic append in {@code epoch}: all of them go into one
     * batch, or none is queued and the refusal says why. Checked in this order: this replica
     * leads (NOT_LEADER), it leads {@code epoch} (WRONG_EPOCH), the records fit one batch
     * (EMPTY, TOO_LARGE), the queue has room (QUEUE_FULL).
     */
    public AppendResult append(int epoch, List<ByteString> records, long nowMs) {
        if (!(ctx.role() instanceof Leader leader) || ctx.isShuttingDown()) {
            return AppendResult.refused(AppendResult.Status.NOT_LEADER, ctx.role().epoch());
        }
        if (leader.epoch() != epoch) {
            return AppendResult.refused(AppendResult.Status.WRONG_EPOCH, leader.epoch());
        }
        if (records.isEmpty()) {
            return AppendResult.refused(AppendResult.Status.EMPTY, epoch);
        }
        RaftLimits limits = ctx.config().limits();
        long bytes = 0;
        for (ByteString record : records) {
            bytes += record.size();
        }
        if (records.size() > limits.appendBatchRecordsMax() || bytes > limits.appendBatchBytesMax()) {
            return AppendResult.refused(AppendResult.Status.TOO_LARGE, epoch);
        }
        AppendQueue queue = leader.appendQueue();
        if (queue.size() + records.size() > limits.appendQueueRecordsMax()) {
            return AppendResult.refused(AppendResult.Status.QUEUE_FULL, epoch);
        }
        queue.add(records, nowMs);
        // The queue drains in order behind the log end, so the last record's offset is fixed now.
        return AppendResult.accepted(ctx.log().endOffset() + queue.size() - 1, epoch);
    }

    /** The leader's part of a poll; returns the next deadline. */
    public long poll(long nowMs) {
        if (!(ctx.role() instanceof Leader leader)) {
            return Long.MAX_VALUE;
        }
        long lingerDeadline = drainAppendQueue(leader, nowMs);
        leader.progress(ctx.localId()).onLocalAppend(ctx.log().flushedEndOffset(), nowMs);
        fetches.maybeAdvanceHighWatermark(leader);
        if (checkQuorum(leader, nowMs) || handOverIfReady(leader, nowMs)) {
            return Long.MAX_VALUE;
        }
        sendBeginQuorumEpoch(leader, nowMs);
        long parkedDeadline = fetches.completeParkedFetches(leader, nowMs);
        long handoverDeadline = leader.isHandingOver() ? leader.handoverDeadlineMs() : Long.MAX_VALUE;
        return Math.min(Math.min(lingerDeadline, parkedDeadline), Math.min(handoverDeadline,
                Math.min(leader.checkQuorumDeadlineMs(), leader.nextBeginQuorumEpochMs())));
    }

    /**
     * Graceful shutdown, first step: this replica takes no more appends (the context is
     * shutting down) and keeps serving fetches until the voter it will name first has
     * fetched at its log end, then resigns ({@link #handOverIfReady}); it waits at most a
     * quarter election timeout. A successor holding the whole log is at least as up to date
     * as every voter, so its campaign (it skips the pre-vote) cannot be refused for its log,
     * as one ranked by a fetch offset an answer old could be under write load.
     */
    public void beginHandover(long nowMs) {
        if (ctx.role() instanceof Leader leader && !leader.isHandingOver()) {
            leader.startHandover(nowMs + Math.max(1, ctx.config().timeouts().electionTimeoutMs() / 4));
        }
    }

    private boolean handOverIfReady(Leader leader, long nowMs) {
        if (!leader.isHandingOver()) {
            return false;
        }
        if (nowMs < leader.handoverDeadlineMs() && !successorCaughtUp(leader, nowMs)) {
            return false;
        }
        resign(nowMs);
        return true;
    }

    /** The first successor holds everything this leader wrote, or none is fetching (so none will catch up). */
    private boolean successorCaughtUp(Leader leader, long nowMs) {
        long activeWindowMs = 2L * ctx.config().timeouts().fetchWaitMsMax();
        List<Integer> successors = leader.successorsForHandoff(nowMs, activeWindowMs);
        if (successors.isEmpty() || ctx.log().hasUnflushed()) {
            return successors.isEmpty();
        }
        var first = leader.progress(successors.get(0));
        boolean active = first.lastFetchMs() >= 0 && nowMs - first.lastFetchMs() <= activeWindowMs;
        return !active || first.endOffset() >= ctx.log().endOffset();
    }

    /**
     * Appends one control batch of {@code records} now, behind everything queued (which is
     * appended first, linger or not: the offsets promised to queued appends stay theirs).
     * Returns the offset of the batch's last record.
     */
    long appendControl(Leader leader, List<ByteString> records, long nowMs) {
        appendQueued(leader, nowMs);
        ctx.log().append(RecordBatches.build(ctx.log().endOffset(), leader.epoch(), nowMs, true, records));
        return ctx.log().endOffset() - 1;
    }

    private long drainAppendQueue(Leader leader, long nowMs) {
        AppendQueue queue = leader.appendQueue();
        RaftLimits limits = ctx.config().limits();
        int lingerMs = ctx.config().timeouts().appendLingerMs();
        boolean full = queue.size() >= limits.appendBatchRecordsMax() || queue.queuedBytes() >= limits.appendBatchBytesMax();
        if (!queue.isEmpty() && lingerMs > 0 && !full && nowMs < queue.oldestQueuedMs() + lingerMs) {
            return queue.oldestQueuedMs() + lingerMs;
        }
        appendQueued(leader, nowMs);
        return Long.MAX_VALUE;
    }

    /** Appends everything queued, in batches of at most the batch limits. */
    private void appendQueued(Leader leader, long nowMs) {
        AppendQueue queue = leader.appendQueue();
        RaftLimits limits = ctx.config().limits();
        while (!queue.isEmpty()) {
            List<ByteString> records = queue.take(limits.appendBatchRecordsMax(), limits.appendBatchBytesMax());
            ctx.log().append(RecordBatches.build(ctx.log().endOffset(), leader.epoch(), nowMs, false, records));
        }
    }

    private boolean checkQuorum(Leader leader, long nowMs) {
        if (leader.voterSet().size() == 1) {
            leader.resetCheckQuorumDeadline(Long.MAX_VALUE);
            return false;
        }
        long majorityFetch = leader.majorityLastFetchMs(nowMs);
        long deadline = Math.max(majorityFetch, leader.checkQuorumDeadlineMs() - checkQuorumTimeoutMs())
                + checkQuorumTimeoutMs();
        leader.resetCheckQuorumDeadline(deadline);
        if (nowMs < deadline) {
            return false;
        }
        LOG.warn("[node {}] no fetch from a majority of voters for {} ms in epoch {}: resigning", ctx.localId(),
                checkQuorumTimeoutMs(), leader.epoch());
        resign(nowMs);
        return true;
    }

    /** Steps down in the current epoch and asks the voters, most caught up first, to elect a successor. */
    public void resign(long nowMs) {
        if (!(ctx.role() instanceof Leader leader)) {
            return;
        }
        // A live follower fetches at least once per fetch wait; twice that tells the dead apart.
        List<Integer> successors = leader.successorsForHandoff(nowMs, 2L * ctx.config().timeouts().fetchWaitMsMax());
        fetches.answerParkedFetchesNotLeader(leader);
        ctx.roles().toResigned(successors, nowMs);
    }

    private void sendBeginQuorumEpoch(Leader leader, long nowMs) {
        for (VoterSet.Voter voter : leader.voterSet().voters()) {
            int voterId = voter.key().id();
            if (voterId == ctx.localId() || !leader.isBeginQuorumEpochDue(voterId, nowMs)) {
                continue;
            }
            leader.scheduleBeginQuorumEpoch(voterId, nowMs + ctx.config().timeouts().requestTimeoutMs(), nowMs);
            ctx.outbox().sendRequest(voterId, RaftRpcs.beginQuorumEpochRequest(ctx.clusterId(), voter.key(),
                    ctx.localId(), leader.epoch()), leader.epoch(), ctx.requestDeadline(nowMs));
        }
    }

    /** A voter that has not fetched this long is sent BeginQuorumEpoch again (Kafka: fetch timeout / 2). */
    private long beginQuorumEpochResendMs() {
        return ctx.config().timeouts().fetchTimeoutMs() / 2;
    }

    public void handleBeginQuorumEpochResponse(int voterId, Outbox.Inflight sent, BeginQuorumEpochResponse response,
                                               long nowMs) {
        if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() != 1
                || response.getTopics(0).getPartitionsCount() != 1) {
            return;
        }
        var p = response.getTopics(0).getPartitions(0);
        if (ctx.observeLeader(p.getLeaderEpoch(), p.getLeaderId(), nowMs)) {
            return;
        }
        if (ctx.role() instanceof Leader leader && leader.epoch() == sent.epoch() && p.getErrorCode() == ErrorCode.NONE) {
            leader.markBeginQuorumEpochAcked(voterId, nowMs);
        }
    }

    public void handleBeginQuorumEpochFailure(int voterId, Outbox.Inflight sent, long nowMs) {
        if (ctx.role() instanceof Leader leader && leader.epoch() == sent.epoch()) {
            leader.scheduleBeginQuorumEpoch(voterId, nowMs + ctx.config().timeouts().retryBackoffMs(), nowMs);
        }
    }

    /** Sends EndQuorumEpoch to the preferred successors that have not acknowledged it yet. */
    public void sendEndQuorumEpoch(Resigned resigned, long nowMs) {
        for (int voterId : resigned.preferredSuccessors()) {
            if (!resigned.needsEndQuorumEpoch(voterId)) {
                continue;
            }
            resigned.markEndQuorumEpochSent(voterId);
            List<ReplicaKey> successors = resigned.preferredSuccessors().stream()
                    .map(id -> new ReplicaKey(id, ctx.voters().directoryIdOf(id))).toList();
            ctx.outbox().sendRequest(voterId, RaftRpcs.endQuorumEpochRequest(ctx.clusterId(), voterId, ctx.localId(),
                    resigned.epoch(), successors), resigned.epoch(), ctx.requestDeadline(nowMs));
        }
    }
}
