package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.BeginQuorumEpochPartitionRequest;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochPartitionRequest;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.context.Outbox;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.message.RaftRequest;

/**
 * BeginQuorumEpoch (a new leader announces itself: followers pull, so they would otherwise
 * not learn of it) and EndQuorumEpoch (a leader resigns: its preferred successors campaign
 * at once, the most caught up first, instead of waiting out the fetch timeout).
 */
public final class QuorumEpochHandler {
    private final CoreContext ctx;

    public QuorumEpochHandler(CoreContext ctx) {
        this.ctx = ctx;
    }

    public void handleBeginQuorumEpochRequest(RaftRequest request, BeginQuorumEpochRequest begin, long nowMs) {
        ErrorCode scope = RaftRpcs.checkScope(ctx.clusterId(), begin);
        if (scope != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, RaftRpcs.topLevelError(begin, scope));
            return;
        }
        BeginQuorumEpochPartitionRequest p = begin.getTopics(0).getPartitions(0);
        ErrorCode error = ErrorCode.NONE;
        // A request for the voter this node was before a reformat (another directory id) is not for it.
        if (!ctx.voters().hasId(p.getLeaderId()) || p.getLeaderId() == ctx.localId()
                || begin.getVoterId() != ctx.localId() || !RaftRpcs.isAddressedTo(ctx.localKey(),
                RaftRpcs.directoryId(p.hasVoterDirectoryId(), p.getVoterDirectoryId()))) {
            error = ErrorCode.INCONSISTENT_VOTER_SET;
        } else if (p.getLeaderEpoch() < ctx.role().epoch()) {
            error = ErrorCode.FENCED_LEADER_EPOCH;
        } else {
            ctx.observeLeader(p.getLeaderEpoch(), p.getLeaderId(), nowMs);
        }
        ctx.outbox().sendResponse(request,
                RaftRpcs.beginQuorumEpochResponse(error, ctx.currentLeaderId(), ctx.role().epoch()));
    }

    public void handleEndQuorumEpochRequest(RaftRequest request, EndQuorumEpochRequest end, long nowMs) {
        ErrorCode scope = RaftRpcs.checkScope(ctx.clusterId(), end);
        if (scope != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, RaftRpcs.topLevelError(end, scope));
            return;
        }
        EndQuorumEpochPartitionRequest p = end.getTopics(0).getPartitions(0);
        ErrorCode error = ErrorCode.NONE;
        // A leader that removed itself (RemoveVoter) is in no voter set when it resigns, yet it
        // is still the leader this replica follows in that epoch: its resignation counts.
        boolean knownLeader = p.getLeaderEpoch() == ctx.role().epoch() && p.getLeaderId() == ctx.currentLeaderId();
        if ((!ctx.voters().hasId(p.getLeaderId()) && !knownLeader) || p.getLeaderId() == ctx.localId()) {
            error = ErrorCode.INCONSISTENT_VOTER_SET;
        } else if (p.getLeaderEpoch() < ctx.role().epoch()) {
            error = ErrorCode.FENCED_LEADER_EPOCH;
        } else {
            if (p.getLeaderEpoch() > ctx.role().epoch()) {
                ctx.observeLeader(p.getLeaderEpoch(), p.getLeaderId(), nowMs);
            }
            onLeaderResigned(p, nowMs);
        }
        ctx.outbox().sendResponse(request,
                RaftRpcs.endQuorumEpochResponse(error, ctx.currentLeaderId(), ctx.role().epoch()));
    }

    private void onLeaderResigned(EndQuorumEpochPartitionRequest p, long nowMs) {
        if (!ctx.isLocalVoter() || ctx.role().epoch() != p.getLeaderEpoch()) {
            return;
        }
        int position = successorPosition(p);
        long backoffMs = position < 0 ? ctx.roles().timers().electionTimeoutMs()
                : ctx.roles().timers().endQuorumEpochBackoffMs(position, p.getPreferredSuccessorsCount());
        // The resigning leader ranked the successors: its order decides who campaigns when,
        // replacing any earlier (fallback) deadline, so the most caught up runs alone first.
        if (ctx.role() instanceof Follower f && f.leaderId() == p.getLeaderId()) {
            f.markLeaderResigned();
            if (position >= 0) {
                f.markNamedSuccessor();
            }
            f.resetFetchDeadline(nowMs + backoffMs);
        } else if (ctx.role() instanceof Unattached u) {
            u.resetElectionDeadline(nowMs + backoffMs);
        }
    }

    /** Where the resigning leader ranked this replica, by node id and directory id; -1 if it did not. */
    private int successorPosition(EndQuorumEpochPartitionRequest p) {
        int position = p.getPreferredSuccessorsList().indexOf(ctx.localId());
        if (position < 0 || position >= p.getPreferredCandidatesCount()) {
            return position;
        }
        ReplicaKey named = ReplicaKey.fromMessage(p.getPreferredCandidates(position));
        return RaftRpcs.isAddressedTo(ctx.localKey(), named.directoryId()) ? position : -1;
    }

    public void handleEndQuorumEpochResponse(int voterId, Outbox.Inflight sent, EndQuorumEpochResponse response,
                                             long nowMs) {
        if (ctx.role() instanceof Resigned resigned && resigned.epoch() == sent.epoch()) {
            resigned.markEndQuorumEpochAcked(voterId);
        }
        if (response.getTopicsCount() == 1 && response.getTopics(0).getPartitionsCount() == 1) {
            var p = response.getTopics(0).getPartitions(0);
            ctx.observeLeader(p.getLeaderEpoch(), p.getLeaderId(), nowMs);
        }
    }

    public void handleEndQuorumEpochFailure(int voterId, Outbox.Inflight sent) {
        if (ctx.role() instanceof Resigned resigned && resigned.epoch() == sent.epoch()) {
            resigned.markEndQuorumEpochFailed(voterId);
        }
    }
}
