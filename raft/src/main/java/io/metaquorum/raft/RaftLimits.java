package io.metaquorum.raft;

/**
 * Every bound the core keeps (docs/engineering-rules.md rule 8), units last.
 *
 * @param fetchBytesMax          records returned by one Fetch
 * @param fetchSnapshotBytesMax  bytes returned by one FetchSnapshot chunk
 * @param appendBatchRecordsMax  records in one appended batch, so also in one atomic append
 * @param appendBatchBytesMax    record bytes in one appended batch, so also in one atomic append
 * @param appendQueueRecordsMax  records waiting to be appended before append() refuses more
 * @param snapshotBytesMax       the largest snapshot a follower downloads
 */
public record RaftLimits(int fetchBytesMax, int fetchSnapshotBytesMax, int appendBatchRecordsMax,
                         int appendBatchBytesMax, int appendQueueRecordsMax, long snapshotBytesMax) {
    /**
     * A fetch carries up to 4 batches of 1 MiB (Kafka's controller.quorum.fetch.max.bytes is
     * 1 MiB, one batch): a follower that fell behind catches up in fewer round trips.
     */
    public static final RaftLimits DEFAULTS =
            new RaftLimits(4 << 20, 1 << 20, 8192, 1 << 20, 1 << 20, 1L << 30);

    /** Throws {@link IllegalArgumentException} naming the first bad relation. */
    public void validate() {
        if (fetchBytesMax <= 0 || fetchSnapshotBytesMax <= 0 || appendBatchRecordsMax <= 0
                || appendBatchBytesMax <= 0 || appendQueueRecordsMax <= 0 || snapshotBytesMax <= 0) {
            throw new IllegalArgumentException("raft limits must all be > 0: " + this);
        }
        if (appendBatchBytesMax > fetchBytesMax) {
            throw new IllegalArgumentException("appendBatchBytesMax (" + appendBatchBytesMax
                    + ") must not exceed fetchBytesMax (" + fetchBytesMax + "): a batch must fit one fetch");
        }
        if (appendQueueRecordsMax < appendBatchRecordsMax) {
            throw new IllegalArgumentException("appendQueueRecordsMax must be >= appendBatchRecordsMax");
        }
    }
}
