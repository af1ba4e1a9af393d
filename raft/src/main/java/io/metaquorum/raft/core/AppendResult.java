package io.metaquorum.raft.core;

/**
 * The answer to {@link RaftCore#append}. Refusals are values, not exceptions.
 *
 * @param lastOffset the offset the last record will have once appended; -1 unless accepted
 */
public record AppendResult(Status status, long lastOffset, int epoch) {
    public enum Status {
        ACCEPTED,
        /** This replica is not the leader of the given epoch. */
        NOT_LEADER,
        /** The append queue is at its limit; retry after commits drain it. */
        QUEUE_FULL,
        /** Empty, or larger than one batch may be. */
        INVALID
    }

    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
