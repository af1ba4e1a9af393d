package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Candidate;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.Prospective;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.core.role.VoteTally;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs elections on the timers: an unattached voter or a follower that lost its leader
 * pre-votes; a won pre-vote becomes a candidacy in the next epoch; a won candidacy hands
 * over to {@link LeaderCoordinator}; a lost one backs off and pre-votes again.
 */
public final class ElectionCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(ElectionCoordinator.class);

    private final CoreContext ctx;
    private final LeaderCoordinator leaders;

    public ElectionCoordinator(CoreContext ctx, LeaderCoordinator leaders) {
        this.ctx = ctx;
        this.leaders = leaders;
    }

    /** Fires the election timers and sends pending (pre-)vote requests; returns the next deadline. */
    public long poll(long nowMs) {
        RaftRole role = ctx.role();
        if (!ctx.mayCampaign() || ctx.isShuttingDown()) {
            return Long.MAX_VALUE;
        }
        if (role instanceof Unattached u && nowMs >= u.electionDeadlineMs()
                || role instanceof Follower f && nowMs >= f.fetchDeadlineMs()
                || role instanceof Resigned r && nowMs >= r.electionDeadlineMs()
                || role instanceof Candidate c && c.isBackingOff() && nowMs >= c.backoffDeadlineMs()) {
            startElection(nowMs);
            role = ctx.role();
        }
        if (role instanceof Prospective p) {
            return pollProspective(p, nowMs);
        }
        if (role instanceof Candidate c) {
            return pollCandidate(c, nowMs);
        }
        return deadlineOf(ctx.role());
    }

    /** A pre-vote, except for a successor its leader named, which campaigns at once. */
    private void startElection(long nowMs) {
        if (ctx.role() instanceof Follower f && f.isNamedSuccessor()) {
            ctx.roles().toCandidateOnHandover(nowMs);
        } else {
            ctx.roles().toProspective(nowMs);
        }
        maybeWin(nowMs);
    }

    private long pollProspective(Prospective p, long nowMs) {
        if (nowMs >= p.electionDeadlineMs()) {
            losePreVote(p, nowMs);
            return deadlineOf(ctx.role());
        }
        if (nowMs >= p.concedeAtMs()) {
            concede(p, nowMs);
            return deadlineOf(ctx.role());
        }
        sendVoteRequests(p.tally(), true, nowMs);
        return Math.min(Math.min(p.electionDeadlineMs(), p.tally().nextRetryMs()), p.concedeAtMs());
    }

    /**
     * How long a pre-voting replica that made a higher id wait (it outranks it) may take to
     * win before it gives up its priority: a tenth of the election timeout, many round trips.
     * It normally wins within one, since the one it made wait grants it.
     */
    long concedeDelayMs() {
        return Math.max(1, ctx.config().timeouts().electionTimeoutMs() / 10);
    }

    /**
     * Not won in time after making higher ids wait: this replica may be unable to win (with
     * five voters, two silent and a survivor it cannot reach). It gives the round up (as a
     * lost pre-vote, so it grants its peers' pre-votes and does not campaign against the one it
     * let go first) and asks each voter it made wait for its pre-vote again: that voter, seeing
     * this replica pre-vote, asks again in turn and is granted now.
     */
    private void concede(Prospective p, long nowMs) {
        List<Integer> waiting = p.concede();
        LOG.debug("[node {}] no pre-vote majority {} ms after making {} wait: conceding", ctx.localId(),
                concedeDelayMs(), waiting);
        int epoch = p.epoch();
        for (int voterId : waiting) {
            ctx.outbox().sendRequest(voterId, RaftRpcs.voteRequest(ctx.clusterId(), voterKey(voterId), epoch,
                    ctx.localKey(), ctx.log().lastEpoch(), ctx.log().endOffset(), true), epoch,
                    ctx.requestDeadline(nowMs));
        }
        losePreVote(p, nowMs);
    }

    private long pollCandidate(Candidate c, long nowMs) {
        if (c.isBackingOff()) {
            return c.backoffDeadlineMs();
        }
        if (nowMs >= c.electionDeadlineMs()) {
            c.startBackoff(nowMs + ctx.roles().timers().electionBackoffMs(c.retries()));
            return c.backoffDeadlineMs();
        }
        sendVoteRequests(c.tally(), false, nowMs);
        return Math.min(c.electionDeadlineMs(), c.tally().nextRetryMs());
    }

    private void sendVoteRequests(VoteTally tally, boolean preVote, long nowMs) {
        int epoch = ctx.role().epoch();
        for (int voterId : ctx.voters().ids()) {
            if (voterId == ctx.localId() || !tally.needsRequest(voterId, nowMs)) {
                continue;
            }
            long correlationId = ctx.outbox().sendRequest(voterId, RaftRpcs.voteRequest(ctx.clusterId(),
                    voterKey(voterId), epoch, ctx.localKey(), ctx.log().lastEpoch(), ctx.log().endOffset(), preVote),
                    epoch, ctx.requestDeadline(nowMs));
            tally.markSent(voterId, correlationId);
        }
    }

    /** Voter {@code voterId} with the directory id the voter set lists for it. */
    private ReplicaKey voterKey(int voterId) {
        return new ReplicaKey(voterId, ctx.voters().directoryIdOf(voterId));
    }

    void onVoteGranted(int voterId, long nowMs) {
        tallyOf(ctx.role()).markAnswered(voterId);
        tallyOf(ctx.role()).recordGrant(voterId);
        maybeWin(nowMs);
    }

    void onVoteRejected(int voterId, long nowMs) {
        VoteTally tally = tallyOf(ctx.role());
        tally.markAnswered(voterId);
        if (ctx.role() instanceof Prospective && tally.takeSeenPreVoting(voterId)) {
            // Its pre-vote overtook this refusal: it had lost the leader by then. Ask again.
            return;
        }
        tally.recordRejection(voterId);
        if (!tally.isLost()) {
            return;
        }
        if (ctx.role() instanceof Prospective p) {
            losePreVote(p, nowMs);
        } else if (ctx.role() instanceof Candidate c && !c.isBackingOff()) {
            c.startBackoff(nowMs + ctx.roles().timers().electionBackoffMs(c.retries()));
        }
    }

    /**
     * A voter whose process is gone cannot grant this election: it counts against it, so two
     * candidates that split the live voters learn they lost at once and back off (one then
     * wins) instead of both waiting out the election timeout.
     */
    void onVoterUnreachable(int voterId, long correlationId, int sentEpoch, long nowMs) {
        if (awaits(voterId, correlationId, sentEpoch)) {
            onVoteRejected(voterId, nowMs);
        }
    }

    void onVoteFailed(int voterId, long correlationId, int sentEpoch, long nowMs, ErrorCode error) {
        RaftRole role = ctx.role();
        if (!awaits(voterId, correlationId, sentEpoch)) {
            return;
        }
        if (error == ErrorCode.INCONSISTENT_CLUSTER_ID) {
            LOG.error("[node {}] voter {} belongs to another cluster (INCONSISTENT_CLUSTER_ID)", ctx.localId(),
                    voterId);
        }
        tallyOf(role).markFailed(voterId, nowMs + ctx.config().timeouts().retryBackoffMs());
    }

    private void maybeWin(long nowMs) {
        RaftRole role = ctx.role();
        if (role instanceof Prospective p && p.tally().isWon()) {
            ctx.roles().toCandidate(nowMs);
            role = ctx.role();
        }
        if (role instanceof Candidate c && c.tally().isWon()) {
            leaders.becomeLeader(nowMs);
        }
    }

    private void losePreVote(Prospective p, long nowMs) {
        if (p.lastLeaderId() >= 0) {
            ctx.roles().toFollowerAfterLostPreVote(nowMs);
        } else {
            ctx.roles().toUnattachedAfterPreVote(nowMs,
                    ctx.roles().timers().electionBackoffMs(p.retries() + 1) + ctx.roles().timers().electionTimeoutMs());
        }
    }

    /**
     * Whether the current (pre-)election awaits this answer: same epoch, still campaigning,
     * and the request its tally sent that voter last, not one of an earlier round.
     */
    boolean awaits(int voterId, long correlationId, int sentEpoch) {
        RaftRole role = ctx.role();
        return role.epoch() == sentEpoch && (role instanceof Prospective || role instanceof Candidate)
                && tallyOf(role).awaits(voterId, correlationId);
    }

    /**
     * A voter that refused this replica's pre-vote now pre-votes itself: it has lost the
     * leader since it refused, so ask it again; if its refusal has not arrived yet, it is
     * taken as stale when it does. The two survivors of a silent leader reach the fetch
     * timeout moments apart; without this the first is refused by the second (still
     * following) and refuses it in turn (see {@link VoteHandler}), and both wait out a round.
     */
    void onPeerPreVoting(int voterId) {
        if (!(ctx.role() instanceof Prospective p)) {
            return;
        }
        if (p.tally().forgetRejection(voterId)) {
            LOG.debug("[node {}] voter {} refused our pre-vote and now pre-votes itself: asking it again",
                    ctx.localId(), voterId);
        } else if (!p.tally().hasResponded(voterId)) {
            // Its refusal may still be on the way (requests and answers travel apart).
            p.tally().noteSeenPreVoting(voterId);
        }
    }

    private static VoteTally tallyOf(RaftRole role) {
        return role instanceof Prospective p ? p.tally() : ((Candidate) role).tally();
    }

    private static long deadlineOf(RaftRole role) {
        if (role instanceof Unattached u) {
            return u.electionDeadlineMs();
        }
        if (role instanceof Follower f) {
            return f.fetchDeadlineMs();
        }
        if (role instanceof Resigned r) {
            return r.electionDeadlineMs();
        }
        return Long.MAX_VALUE;
    }
}
