package io.metaquorum.raft.storage;

import io.metaquorum.protocol.RecordBatch;
import java.util.Objects;

/**
 * The argument checks of the {@link RaftLog} contract: which appends, reads, truncations and
 * snapshots are acceptable. {@link LogIndex} applies them for every log, so the in-memory
 * logs and the RocksDB log cannot drift apart on them.
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
}
