package io.metaquorum.raft.storage;

import io.metaquorum.protocol.RecordBatch;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;

/**
 * The parts of the {@link RaftLog} contract every implementation applies the same way: which
 * appends and snapshots are acceptable, and how the epoch index answers
 * {@link RaftLog#endOffsetForEpoch}. Shared so the in-memory model and the RocksDB log cannot
 * drift apart on them.
 */
public final class RaftLogRules {
    private RaftLogRules() {
    }

    /** Throws {@link IllegalArgumentException} unless {@code batch} may be appended at {@code endOffset}. */
    public static void checkAppend(RecordBatch batch, long endOffset, int lastEpoch) {
        Objects.requireNonNull(batch, "batch");
        if (batch.getBaseOffset() != endOffset) {
            throw new IllegalArgumentException("batch base offset " + batch.getBaseOffset()
                    + " is not the log end offset " + endOffset);
        }
        if (batch.getRecordCount() == 0) {
            throw new IllegalArgumentException("empty batch at offset " + endOffset);
        }
        if (batch.getEpoch() < lastEpoch) {
            throw new IllegalArgumentException("batch epoch " + batch.getEpoch() + " at offset " + endOffset
                    + " is below the last epoch " + lastEpoch);
        }
        if (!RecordBatches.isValid(batch)) {
            throw new IllegalArgumentException("batch at offset " + endOffset + " fails its CRC32C check");
        }
    }

    /** Throws {@link IllegalArgumentException} unless a read from {@code fromOffset} of up to {@code maxBytes} is valid. */
    public static void checkRead(long fromOffset, int maxBytes, long startOffset, long endOffset) {
        if (fromOffset < startOffset || fromOffset > endOffset) {
            throw new IllegalArgumentException("read offset " + fromOffset + " is outside the log ["
                    + startOffset + ", " + endOffset + "]");
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
    }

    /** Throws {@link IllegalArgumentException} if {@code offset} lies below the log start. */
    public static void checkTruncate(long offset, long startOffset) {
        if (offset < startOffset) {
            throw new IllegalArgumentException("cannot truncate to " + offset + " below the log start " + startOffset);
        }
    }

    /** Throws {@link IllegalArgumentException} if snapshot {@code id} is older than the log start. */
    public static void checkSnapshotNotOlder(OffsetAndEpoch id, long startOffset, int snapshotEpoch) {
        if (id.offset() < startOffset || id.epoch() < snapshotEpoch) {
            throw new IllegalArgumentException("snapshot " + id + " is older than the log start ("
                    + startOffset + ", epoch " + snapshotEpoch + ")");
        }
    }

    /**
     * {@link RaftLog#endOffsetForEpoch} over an index of each epoch's first offset: the largest
     * epoch at or below {@code epoch} and where it ends (the next epoch's start, or the log end);
     * below every epoch in the log, the log start and the snapshot's epoch.
     */
    public static OffsetAndEpoch endOffsetForEpoch(NavigableMap<Integer, Long> epochStarts, int epoch,
                                                   long startOffset, int snapshotEpoch, long endOffset) {
        Map.Entry<Integer, Long> known = epochStarts.floorEntry(epoch);
        if (known == null) {
            return new OffsetAndEpoch(startOffset, snapshotEpoch);
        }
        Map.Entry<Integer, Long> next = epochStarts.higherEntry(known.getKey());
        return new OffsetAndEpoch(next == null ? endOffset : next.getValue(), known.getKey());
    }
}
