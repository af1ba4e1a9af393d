package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;

/**
 * No known leader in this epoch, possibly having voted in it. A voter starts a pre-vote
 * when {@code electionDeadlineMs} passes; an observer looks for the leader by fetching
 * from voters in turn.
 */
public final class Unattached implements RaftRole {
    private final int epoch;
    private final int votedId;
    private long electionDeadlineMs;

    public Unattached(int epoch, int votedId, long electionDeadlineMs) {
        this.epoch = epoch;
        this.votedId = votedId;
        this.electionDeadlineMs = electionDeadlineMs;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.UNATTACHED;
    }

    @Override
    public int leaderId() {
        return ElectionState.NONE;
    }

    public int votedId() {
        return votedId;
    }

    public boolean hasVoted() {
        return votedId != ElectionState.NONE;
    }

    public long electionDeadlineMs() {
        return electionDeadlineMs;
    }

    public void resetElectionDeadline(long deadlineMs) {
        this.electionDeadlineMs = deadlineMs;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, ElectionState.NONE, votedId);
    }
}
