package io.metaquorum.raft;

/**
 * The answer to {@link RaftCore#append}: an atomic append pinned to the epoch its caller
 * decided in. Refusals are values the caller acts on, never exceptions; a refused append
 * left nothing in the log.
 *
 * @param lastOffset the offset the last record will have once appended; -1 unless accepted.
 *                   All the append's records go into one batch, so they occupy
 *                   {@code lastOffset - count + 1 .. lastOffset}.
 * @param epoch      the epoch this replica is in: the epoch appended in when accepted, else
 *                   the one the caller's epoch is compared with
 */
public record AppendResult(Status status, long lastOffset, int epoch) {
    public enum Status {
        ACCEPTED,
        /** This replica does not lead (or is shutting down): send the records to the leader, if still wanted. */
        NOT_LEADER,
        /**
         * This replica leads, but not the epoch the caller gave: the records were decided
         * against the state of another leadership and must be decided again.
         */
        WRONG_EPOCH,
        /**
         * More records or record bytes than one batch may hold
         * ({@code RaftLimits.appendBatchRecordsMax} / {@code appendBatchBytesMax}): an atomic
         * append never spans two batches, so it must be made smaller. Retrying cannot help.
         */
        TOO_LARGE,
        /** No records. */
        EMPTY,
        /** The append queue is at its limit; retry after commits drain it. */
        QUEUE_FULL
    }

    public AppendResult {
        if ((status == Status.ACCEPTED) != (lastOffset >= 0)) {
            throw new IllegalArgumentException("lastOffset " + lastOffset + " with status " + status);
        }
    }

    public static AppendResult accepted(long lastOffset, int epoch) {
        return new AppendResult(Status.ACCEPTED, lastOffset, epoch);
    }

    public static AppendResult refused(Status status, int epoch) {
        return new AppendResult(status, -1, epoch);
    }

    public boolean accepted() {
        return status == Status.ACCEPTED;
    }
}
