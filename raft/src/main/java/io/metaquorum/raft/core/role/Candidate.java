package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;

/**
 * Campaigning in its own new epoch, having voted for itself (persisted). Wins with a
 * majority; on a lost or timed-out election it backs off and pre-votes again.
 */
public final class Candidate implements RaftRole {
    private final int epoch;
    private final int localId;
    private final int retries;
    private final long electionDeadlineMs;
    private final VoteTally tally;
    private long backoffDeadlineMs = -1;

    public Candidate(int epoch, int localId, int retries, long electionDeadlineMs, VoteTally tally) {
        this.epoch = epoch;
        this.localId = localId;
        this.retries = retries;
        this.electionDeadlineMs = electionDeadlineMs;
        this.tally = tally;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.CANDIDATE;
    }

    @Override
    public int leaderId() {
        return ElectionState.NONE;
    }

    public int retries() {
        return retries;
    }

    public long electionDeadlineMs() {
        return electionDeadlineMs;
    }

    public VoteTally tally() {
        return tally;
    }

    public boolean isBackingOff() {
        return backoffDeadlineMs >= 0;
    }

    public long backoffDeadlineMs() {
        return backoffDeadlineMs;
    }

    public void startBackoff(long deadlineMs) {
        this.backoffDeadlineMs = deadlineMs;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, ElectionState.NONE, localId);
    }
}
