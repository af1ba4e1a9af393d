package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.VotePartitionRequest;
import io.metaquorum.protocol.VotePartitionResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.context.Outbox;
import io.metaquorum.raft.core.role.Candidate;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.Prospective;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RequestFailure;

/**
 * Vote and pre-vote (KIP-595, KIP-996), both sides.
 *
 * <p>Granting a real vote: the request's epoch is ours (a higher one was adopted first),
 * we have not voted for anyone else in it, know no leader in it, and the candidate's log
 * is at least as up to date as ours; the vote is persisted before the answer is queued.
 * Granting a pre-vote changes nothing durable: the candidate's log must be up to date and
 * we must have lost our leader (no fetch within the fetch timeout or since a lost pre-vote,
 * a broken connection, or a resignation) or know none, and a replica in its first pre-vote
 * refuses a higher id whose log is no longer than its own (see {@link #outranks}).
 */
public final class VoteHandler {
    private final CoreContext ctx;
    private final ElectionCoordinator elections;

    public VoteHandler(CoreContext ctx, ElectionCoordinator elections) {
        this.ctx = ctx;
        this.elections = elections;
    }

    public void handleVoteRequest(RaftRequest request, VoteRequest vote, long nowMs) {
        ErrorCode scope = RaftRpcs.checkScope(ctx.clusterId(), vote);
        if (scope != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, RaftRpcs.topLevelError(vote, scope));
            return;
        }
        VotePartitionRequest p = vote.getTopics(0).getPartitions(0);
        ErrorCode invalid = validate(vote, p);
        if (invalid != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, answer(invalid, false));
            return;
        }
        if (p.getReplicaEpoch() < ctx.role().epoch()) {
            ctx.outbox().sendResponse(request, answer(ErrorCode.FENCED_LEADER_EPOCH, false));
            return;
        }
        // KIP-996: a real vote request moves the receiver to its epoch; a pre-vote never does, so
        // a partitioned replica's pre-votes cannot disrupt the quorum.
        if (p.getReplicaEpoch() > ctx.role().epoch() && !p.getPreVote()) {
            ctx.roles().toUnattached(p.getReplicaEpoch(), nowMs);
        }
        boolean granted = p.getPreVote() ? canGrantPreVote(p, nowMs) : grantVote(p, nowMs);
        ctx.outbox().sendResponse(request, answer(ErrorCode.NONE, granted));
        if (p.getPreVote() && p.getReplicaEpoch() == ctx.role().epoch()) {
            elections.onPeerPreVoting(p.getReplicaId());
        }
    }

    private ErrorCode validate(VoteRequest vote, VotePartitionRequest p) {
        // KIP-853: only a voter by node id and directory id answers, and only a request meant for
        // it (not for the voter this node was before a reformat).
        if (!mayAnswerVotes() || !mayBeVoter(p) || vote.getVoterId() != ctx.localId()
                || p.getReplicaId() == ctx.localId() || !RaftRpcs.isAddressedTo(ctx.localKey(),
                RaftRpcs.directoryId(p.hasVoterDirectoryId(), p.getVoterDirectoryId()))) {
            return ErrorCode.INCONSISTENT_VOTER_SET;
        }
        if (p.getLastOffset() < 0 || p.getLastOffsetEpoch() < 0 || p.getReplicaEpoch() < 0) {
            return ErrorCode.INVALID_REQUEST;
        }
        return ErrorCode.NONE;
    }

    /**
     * Whether this replica answers votes: as a voter of its own voter set, or (kraft.version 1)
     * as the voter a candidate's newer voter set may name, which this replica's log does not
     * hold yet (KIP-853): otherwise a voter change interrupted before it reached this replica
     * can leave no candidate able to win. The request names the voter it is meant for,
     * directory id included, and {@link RaftRpcs#isAddressedTo} refuses one meant for the
     * replica this node was before a reformat.
     */
    private boolean mayAnswerVotes() {
        return ctx.isLocalVoter() || ctx.config().kraftVersion() == 1;
    }

    /**
     * Whether the candidate may be a voter: one this replica's voter set lists, or (kraft.version
     * 1) any node that names its directory id, since this
     * replica's set may be older than the candidate's: a voter that has not fetched the
     * VotersRecord adding the candidate (or removing another) yet must still answer it, or an
     * interrupted voter change can leave no replica able to win an election (KIP-853 lets
     * the candidate's own voter set decide who it needs).
     */
    private boolean mayBeVoter(VotePartitionRequest p) {
        // A candidate this set does not list must name its own directory id: a request without
        // one (a static-voter node, a stray tool) comes from no KIP-853 voter set, and answering
        // it would let an unknown node move the voters' epoch.
        return ctx.voters().hasId(p.getReplicaId()) || ctx.config().kraftVersion() == 1
                && p.hasReplicaDirectoryId() && !TopicIds.ZERO.equals(p.getReplicaDirectoryId());
    }

    /**
     * Whether the candidate may be the voter it claims to be: a voter the voter set lists with
     * that directory id, or (kraft.version 1) a node the set does not list at all (see
     * {@link #mayBeVoter}). A node listed with another directory id was reformatted since: it
     * lost its log and its votes, and must not be elected.
     */
    private boolean isCandidateVoter(VotePartitionRequest p) {
        ReplicaKey candidate = new ReplicaKey(p.getReplicaId(),
                RaftRpcs.directoryId(p.hasReplicaDirectoryId(), p.getReplicaDirectoryId()));
        return ctx.voters().isVoter(candidate)
                || ctx.config().kraftVersion() == 1 && !ctx.voters().hasId(candidate.id());
    }

    private boolean canGrantPreVote(VotePartitionRequest p, long nowMs) {
        if (!isCandidateVoter(p) || !ctx.isLogUpToDate(p.getLastOffsetEpoch(), p.getLastOffset())) {
            return false;
        }
        RaftRole role = ctx.role();
        if (role instanceof Leader) {
            return false;
        }
        if (role instanceof Follower follower) {
            return p.getReplicaEpoch() > follower.epoch() || follower.hasLostLeader(nowMs);
        }
        if (role instanceof Prospective self && outranks(self, p)) {
            self.madeWait(p.getReplicaId(), nowMs + elections.concedeDelayMs());
            return false;
        }
        return true;
    }

    /**
     * Whether this replica, in its first pre-vote since it lost its leader, outranks the
     * requester: it has the lower id and a log just as long. Two survivors of a crashed leader
     * that pre-vote at once would each collect the other's grant, raise the epoch together,
     * vote for themselves and split the real vote; refusing the higher id here lets exactly one
     * of them campaign. A requester with a longer log is never refused, since only it can win.
     * The lower id may be the one that cannot win (a voter it cannot reach): when it has not
     * won soon after making a higher id wait, or once a round is lost, it claims no priority
     * (see {@link ElectionCoordinator#concedeDelayMs}).
     */
    private boolean outranks(Prospective self, VotePartitionRequest p) {
        return self.lostRounds() == 0 && !self.hasConceded() && p.getReplicaId() > ctx.localId()
                && p.getLastOffsetEpoch() == ctx.log().lastEpoch() && p.getLastOffset() == ctx.log().endOffset();
    }

    private boolean grantVote(VotePartitionRequest p, long nowMs) {
        RaftRole role = ctx.role();
        if (p.getReplicaEpoch() != role.epoch() || !isCandidateVoter(p)) {
            return false;
        }
        if (role instanceof Prospective prospective && prospective.electionState().votedId() < 0
                && ctx.isLogUpToDate(p.getLastOffsetEpoch(), p.getLastOffset())) {
            ctx.roles().toUnattachedAfterPreVote(nowMs, 0);
            role = ctx.role();
        }
        if (!(role instanceof Unattached unattached)) {
            return false;
        }
        if (unattached.hasVoted()) {
            return unattached.votedId() == p.getReplicaId();
        }
        if (!ctx.isLogUpToDate(p.getLastOffsetEpoch(), p.getLastOffset())) {
            return false;
        }
        ctx.roles().toUnattachedVoted(p.getReplicaId(), nowMs);
        return true;
    }

    private VoteResponse answer(ErrorCode error, boolean granted) {
        return RaftRpcs.voteResponse(error, ctx.currentLeaderId(), ctx.role().epoch(), granted);
    }

    public void handleVoteResponse(int voterId, long correlationId, Outbox.Inflight sent, VoteResponse response,
                                   long nowMs) {
        if (response.getErrorCode() != ErrorCode.NONE || response.getTopicsCount() != 1
                || response.getTopics(0).getPartitionsCount() != 1) {
            elections.onVoteFailed(voterId, correlationId, sent.epoch(), nowMs, response.getErrorCode());
            return;
        }
        VotePartitionResponse p = response.getTopics(0).getPartitions(0);
        if (!namesTheLostLeader(p)) {
            ctx.observeLeader(p.getLeaderEpoch(), p.getLeaderId(), nowMs);
        }
        RaftRole role = ctx.role();
        boolean preVote = ((VoteRequest) sent.payload()).getTopics(0).getPartitions(0).getPreVote();
        boolean current = (preVote ? role instanceof Prospective : role instanceof Candidate)
                && elections.awaits(voterId, correlationId, sent.epoch());
        if (!current) {
            return;
        }
        if (p.getErrorCode() == ErrorCode.NONE && p.getVoteGranted()) {
            elections.onVoteGranted(voterId, nowMs);
        } else if (p.getErrorCode() == ErrorCode.NONE || p.getErrorCode() == ErrorCode.FENCED_LEADER_EPOCH) {
            elections.onVoteRejected(voterId, nowMs);
        } else {
            elections.onVoteFailed(voterId, correlationId, sent.epoch(), nowMs, p.getErrorCode());
        }
    }

    /**
     * A pre-voter that still follows the leader this replica has lost names it in its
     * answer; that is a rejection to count, not a reason to go back to the lost leader.
     */
    private boolean namesTheLostLeader(VotePartitionResponse p) {
        return ctx.role() instanceof Prospective prospective && p.getLeaderEpoch() == prospective.epoch()
                && p.getLeaderId() == prospective.lastLeaderId();
    }

    public void handleVoteFailure(RequestFailure failure, Outbox.Inflight sent, long nowMs) {
        if (failure.reason() == RequestFailure.Reason.UNREACHABLE) {
            elections.onVoterUnreachable(failure.peerId(), failure.correlationId(), sent.epoch(), nowMs);
        } else {
            elections.onVoteFailed(failure.peerId(), failure.correlationId(), sent.epoch(), nowMs,
                    ErrorCode.NETWORK_EXCEPTION);
        }
    }
}
