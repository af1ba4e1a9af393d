package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;
import java.util.List;
import java.util.TreeSet;

/**
 * Pre-vote (KIP-996): asks the voters whether they would vote for it in the next epoch,
 * without changing any persistent state. A majority of grants leads to
 * {@link Candidate}; a lost or timed-out pre-vote goes back to following the last known
 * leader (if any) or to {@link Unattached}.
 */
public final class Prospective implements RaftRole {
    private final int epoch;
    private final int votedId;
    private final int lastLeaderId;
    private final int retries;
    private final int lostRounds;
    private final long electionDeadlineMs;
    private final VoteTally tally;
    /** Higher ids this replica refused because it outranks them, until it concedes. */
    private final TreeSet<Integer> madeWait = new TreeSet<>();
    private long concedeAtMs = Long.MAX_VALUE;
    private boolean conceded;

    public Prospective(int epoch, int votedId, int lastLeaderId, int retries, int lostRounds, long electionDeadlineMs,
                       VoteTally tally) {
        this.epoch = epoch;
        this.votedId = votedId;
        this.lastLeaderId = lastLeaderId;
        this.retries = retries;
        this.lostRounds = lostRounds;
        this.electionDeadlineMs = electionDeadlineMs;
        this.tally = tally;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.PROSPECTIVE;
    }

    /** A prospective has stopped following: it knows no usable leader. */
    @Override
    public int leaderId() {
        return ElectionState.NONE;
    }

    /** The leader it followed before the pre-vote, or -1: where it returns if the pre-vote fails. */
    public int lastLeaderId() {
        return lastLeaderId;
    }

    public int retries() {
        return retries;
    }

    /** Pre-votes this replica lost in a row before this one, since it last heard from its leader. */
    public int lostRounds() {
        return lostRounds;
    }

    public long electionDeadlineMs() {
        return electionDeadlineMs;
    }

    public VoteTally tally() {
        return tally;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, lastLeaderId, votedId);
    }

    /**
     * This replica refused {@code voterId} because it outranks it; unless it wins first, it
     * concedes at {@code concedeAtMs} (set by the first such refusal).
     */
    public void madeWait(int voterId, long concedeAt) {
        madeWait.add(voterId);
        concedeAtMs = Math.min(concedeAtMs, concedeAt);
    }

    public long concedeAtMs() {
        return conceded ? Long.MAX_VALUE : concedeAtMs;
    }

    public boolean hasConceded() {
        return conceded;
    }

    /** Gives up its priority; returns the voters it made wait, to be told. */
    public List<Integer> concede() {
        conceded = true;
        return List.copyOf(madeWait);
    }

    public List<Integer> grantingVoters() {
        return tally.grantingVoters();
    }
}
