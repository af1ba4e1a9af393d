package io.metaquorum.raft.core.role;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.core.quorum.VoterSetHistory;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.QuorumStateStore;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place the role changes. Each transition is validated against the table below,
 * persists the election state (epoch, leader, vote) before the role changes in memory when
 * it differs from what is stored, and logs one INFO line. The state machine hears of the change
 * from RaftCore, once the call that made it returns.
 *
 * <pre>
 * from \ to    Unattached  Prospective  Candidate  Leader  Follower      Resigned
 * Unattached   higher/vote yes (voter)  -          -       same/higher   -
 * Prospective  higher      -            yes        -       same/higher   -
 * Candidate    higher      yes (lost)   -          yes     same/higher   -
 * Leader       higher      -            -          -       higher        yes
 * Follower     higher      yes (voter)  -          -       higher        -
 * Resigned     higher      yes          -          -       higher        -
 * </pre>
 * Observers only move between Unattached and Follower.
 */
public final class RoleTransitions {
    private static final Logger LOG = LoggerFactory.getLogger(RoleTransitions.class);

    private final RaftConfig config;
    private final VoterSetHistory voters;
    private final QuorumStateStore store;
    private final ElectionTimers timers;
    private RaftRole current;
    private ElectionState persisted;

    public RoleTransitions(RaftConfig config, VoterSetHistory voters, QuorumStateStore store, ElectionTimers timers,
                           RaftRole initial) {
        this.config = config;
        this.voters = voters;
        this.store = store;
        this.timers = timers;
        this.persisted = store.read().orElse(ElectionState.INITIAL);
        this.current = initial;
        persist(initial.electionState());
        LOG.info("[node {}] starting as {} in epoch {}", config.localId(), initial.name(), initial.epoch());
    }

    public RaftRole current() {
        return current;
    }

    public int epoch() {
        return current.epoch();
    }

    public ElectionTimers timers() {
        return timers;
    }

    public void toUnattached(int epoch, long nowMs) {
        Invariants.check(epoch > current.epoch(), "node %d: unattached needs a higher epoch: %d -> %d",
                config.localId(), current.epoch(), epoch);
        long deadline = mayBeCandidate() ? nowMs + timers.electionTimeoutMs() : nowMs;
        switchTo(new Unattached(epoch, ElectionState.NONE, deadline));
    }

    /** Records a vote for {@code candidateId} in the current epoch (which must be Unattached, not yet voted). */
    public void toUnattachedVoted(int candidateId, long nowMs) {
        Invariants.check(current instanceof Unattached u && !u.hasVoted(),
                "node %d: may vote only once per epoch, and only while unattached (now %s)", config.localId(),
                current.name());
        switchTo(new Unattached(current.epoch(), candidateId, nowMs + timers.electionTimeoutMs()));
    }

    public void toProspective(long nowMs) {
        Invariants.check(mayBeCandidate(), "node %d: observers never campaign", config.localId());
        int retries = current instanceof Candidate c ? c.retries() : 0;
        // A resigned leader keeps its vote for itself: it must never vote in its own epoch again.
        int votedId = current.electionState().votedId();
        int lastLeader = current instanceof Follower f ? f.leaderId() : ElectionState.NONE;
        int lostRounds = current instanceof Follower f ? f.lostPreVotes() : 0;
        Invariants.check(!(current instanceof Leader) && !(current instanceof Prospective),
                "node %d: cannot pre-vote from %s", config.localId(), current.name());
        switchTo(new Prospective(current.epoch(), votedId, lastLeader, retries, lostRounds,
                nowMs + timers.electionTimeoutMs(), new VoteTally(voters.active().ids(), config.localId())));
    }

    /**
     * A voter of the active set, or of the set the latest VotersRecord replaced: the caller
     * checks the rest of {@link VoterSetHistory#mayCampaign} (that record is not known committed).
     */
    private boolean mayBeCandidate() {
        return voters.active().isVoter(config.localKey()) || voters.beforeLastChange().isVoter(config.localKey());
    }

    /**
     * A lost pre-vote returns to the leader it had lost. Under the standard rule that is not
     * hearing from it: the follower keeps counting it lost and pre-votes again after a
     * randomized election timeout plus a backoff growing with the rounds lost in a row
     * (a follower cut off from a healthy leader retries ever more slowly). KIP-996: only a
     * successful fetch is hearing from the leader, so it grants its peers' pre-votes until one
     * succeeds; treating the return as contact (a fresh fetch timeout) lets the survivors of a
     * silent leader refuse each other round after round.
     */
    public void toFollowerAfterLostPreVote(long nowMs) {
        Invariants.check(current instanceof Prospective p && p.lastLeaderId() >= 0,
                "node %d: only a pre-vote that left a leader returns to it, not %s", config.localId(), current.name());
        Prospective p = (Prospective) current;
        int lost = p.lostRounds() + 1;
        long deadline = nowMs + timers.electionTimeoutMs() + timers.electionBackoffMs(lost);
        switchTo(new Follower(p.epoch(), p.lastLeaderId(), votedIdOf(p), deadline, lost));
    }

    /** A lost pre-vote with no leader to return to: wait {@code backoffMs}, then try again. */
    public void toUnattachedAfterPreVote(long nowMs, long backoffMs) {
        Invariants.check(current instanceof Prospective, "node %d: expected prospective, was %s",
                config.localId(), current.name());
        switchTo(new Unattached(current.epoch(), current.electionState().votedId(), nowMs + backoffMs));
    }

    public void toCandidate(long nowMs) {
        Invariants.check(current instanceof Prospective, "node %d: a candidate comes from a won pre-vote, not %s",
                config.localId(), current.name());
        int retries = ((Prospective) current).retries() + 1;
        switchTo(new Candidate(current.epoch() + 1, config.localId(), retries, nowMs + timers.electionTimeoutMs(),
                new VoteTally(voters.active().ids(), config.localId())));
    }

    /**
     * A successor named by its resigning leader campaigns at once, without a pre-vote (as
     * etcd does on a leadership transfer): the pre-vote guards a healthy leader against
     * needless elections, and this one has handed over. Saves a round trip on every
     * graceful shutdown of a leader.
     */
    public void toCandidateOnHandover(long nowMs) {
        Invariants.check(current instanceof Follower f && f.isNamedSuccessor(),
                "node %d: only a successor named by its leader campaigns without a pre-vote, not %s",
                config.localId(), current.name());
        switchTo(new Candidate(current.epoch() + 1, config.localId(), 1, nowMs + timers.electionTimeoutMs(),
                new VoteTally(voters.active().ids(), config.localId())));
    }

    public Leader toLeader(long epochStartOffset, long nowMs, long checkQuorumTimeoutMs, long beginQuorumEpochResendMs) {
        Invariants.check(current instanceof Candidate c && c.tally().isWon(),
                "node %d: only a candidate with a majority leads", config.localId());
        Leader leader = new Leader(current.epoch(), config.localId(), epochStartOffset, voters.active(),
                nowMs + checkQuorumTimeoutMs, beginQuorumEpochResendMs);
        switchTo(leader);
        return leader;
    }

    public void toFollower(int epoch, int leaderId, long fetchDeadlineMs) {
        boolean sameEpoch = epoch == current.epoch();
        Invariants.check(epoch >= current.epoch(), "node %d: follow in an older epoch %d < %d",
                config.localId(), epoch, current.epoch());
        Invariants.check(!sameEpoch || current.leaderId() == ElectionState.NONE || current.leaderId() == leaderId
                        || current instanceof Prospective,
                "node %d: two leaders in epoch %d: %d and %d", config.localId(), epoch, current.leaderId(), leaderId);
        Invariants.check(!(sameEpoch && (current instanceof Leader || current instanceof Resigned)),
                "node %d: leader of epoch %d told to follow %d in it", config.localId(), epoch, leaderId);
        int votedId = sameEpoch ? votedIdOf(current) : ElectionState.NONE;
        switchTo(new Follower(epoch, leaderId, votedId, fetchDeadlineMs));
    }

    public Resigned toResigned(List<Integer> preferredSuccessors, long nowMs) {
        Invariants.check(current instanceof Leader, "node %d: only a leader resigns", config.localId());
        Resigned resigned = new Resigned(current.epoch(), config.localId(), preferredSuccessors,
                nowMs + timers.electionTimeoutMs());
        switchTo(resigned);
        return resigned;
    }

    private static int votedIdOf(RaftRole role) {
        return role.electionState().votedId();
    }

    private void switchTo(RaftRole next) {
        RaftRole previous = current;
        persist(next.electionState());
        current = next;
        if (previous != next && previous instanceof Follower follower) {
            // A download the new role does not continue would leave its temporary file behind.
            follower.finishSnapshotDownload();
        }
        if (previous.name() != next.name() || previous.epoch() != next.epoch()) {
            LOG.info("[node {}] {} epoch {} -> {} epoch {} (leader {})", config.localId(), previous.name(),
                    previous.epoch(), next.name(), next.epoch(), next.leaderId());
        }
    }

    private void persist(ElectionState state) {
        if (!state.equals(persisted)) {
            Invariants.check(state.epoch() >= persisted.epoch(), "node %d: persisted epoch went back %d -> %d",
                    config.localId(), persisted.epoch(), state.epoch());
            Invariants.check(state.epoch() > persisted.epoch() || !persisted.hasVoted() || !state.hasVoted()
                            || persisted.votedId() == state.votedId(),
                    "node %d: second vote in epoch %d", config.localId(), state.epoch());
            store.write(state);
            persisted = state;
        }
    }
}
