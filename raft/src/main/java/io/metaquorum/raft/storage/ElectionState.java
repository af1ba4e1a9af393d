package io.metaquorum.raft.storage;

/**
 * What a voter must remember across restarts: the epoch, the leader it knows for it and
 * the vote it cast in it. Invariant: at most one vote per epoch; {@code -1} means none.
 */
public record ElectionState(int epoch, int leaderId, int votedId) {
    public static final int NONE = -1;
    public static final ElectionState INITIAL = new ElectionState(0, NONE, NONE);

    public boolean hasLeader() {
        return leaderId != NONE;
    }

    public boolean hasVoted() {
        return votedId != NONE;
    }
}
