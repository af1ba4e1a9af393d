package io.metaquorum.raft.storage;

import io.metaquorum.protocol.RecordBatch;
import java.util.List;
import java.util.Optional;

/**
 * The replicated log as the consensus core sees it: batches of opaque records at
 * consecutive offsets, an epoch index, and snapshots that let the log start move.
 *
 * <p>Offsets count records. A batch covers {@code [baseOffset, baseOffset + records)}.
 * Implementations verify the CRC of every batch they read and throw
 * {@link CorruptLogException} naming the offset; every other failure is a
 * {@link StorageException}. Single-threaded: only the driver thread calls it.
 *
 * <p>Durability, which the core relies on (a crash may come between any two calls):
 * <ul>
 *   <li>Appends are buffered until {@link #flush()}: a crash keeps at least the records below
 *       {@link #flushedEndOffset()} and may keep any prefix of the rest.</li>
 *   <li>{@link #truncateTo} is durable when it returns: after a crash the removed records
 *       never come back, even if appends made after it are lost. A follower truncates on the
 *       leader's word and may apply the leader's records that replace the tail (up to the
 *       high watermark) before they are synced: a returning old tail would contradict what it
 *       applied. Implementations sync it in one write with every append before it.</li>
 *   <li>{@link #installSnapshot} is durable when it returns, the log start moved with it,
 *       with the same sync of the earlier appends.</li>
 *   <li>The epoch index is part of the batches it describes: an epoch's start is durable
 *       exactly when the epoch's first batch is.</li>
 * </ul>
 * {@link #flushedEndOffset()} stays a lower bound: a truncation or snapshot that synced
 * more need not move it. {@link LogIndex} holds the bookkeeping every implementation shares.
 *
 * <p>Invariants: {@code startOffset <= flushedEndOffset <= endOffset}; batch epochs never
 * decrease along the log; {@code startOffset} equals the end offset of the latest snapshot
 * (or 0 without one).
 */
public interface RaftLog extends AutoCloseable {
    /** The first offset still in the log. */
    long startOffset();

    /** One past the last record appended (flushed or not). */
    long endOffset();

    /** One past the last record known durable. */
    long flushedEndOffset();

    /** The epoch of the last batch, else of the latest snapshot, else 0. */
    int lastEpoch();

    /**
     * Appends one batch. Requires {@code batch.getBaseOffset() == endOffset()}, a non-empty
     * record list, an epoch not below {@link #lastEpoch()} and a valid CRC.
     */
    void append(RecordBatch batch);

    /** Makes everything appended durable (one sync, however many batches). */
    void flush();

    /** True when some appended batch is not yet durable. */
    boolean hasUnflushed();

    /**
     * Whole batches holding offsets from {@code fromOffset} on, in order, up to about
     * {@code maxBytes} of records (at least one batch when any exists). {@code fromOffset}
     * must lie in {@code [startOffset, endOffset]}.
     */
    List<RecordBatch> read(long fromOffset, int maxBytes);

    /**
     * Removes every record at or above {@code offset} (a batch straddling it is cut), and
     * the epoch index entries after it, durably: synced before it returns. Requires
     * {@code startOffset <= offset}.
     */
    void truncateTo(long offset);

    /**
     * The largest epoch {@code <= epoch} known to the log and the offset where it ends
     * (the start of the next epoch, or {@link #endOffset()}). Below the first epoch of the
     * log it answers the latest snapshot's id, or {@code (0, 0)}; an epoch older than
     * everything answers {@code (startOffset, epoch of snapshot)}.
     */
    OffsetAndEpoch endOffsetForEpoch(int epoch);

    /** The newest snapshot, if any. Its offset equals {@link #startOffset()}. */
    Optional<OffsetAndEpoch> latestSnapshot();

    /**
     * A writer for a new snapshot {@code id}, written aside (a temporary file, or memory)
     * where the log does not see it until {@link #installSnapshot(SnapshotWriter)}.
     * Thread-safe: the snapshot-writer thread calls it and writes while the driver goes on.
     */
    SnapshotWriter createSnapshot(OffsetAndEpoch id);

    /**
     * Makes a frozen snapshot from {@link #createSnapshot} of this log stored (atomically and
     * durably), then moves the log start to its offset, deleting older batches and older
     * snapshots. If the snapshot ends beyond {@link #endOffset()} or does not match the log
     * at its offset, the whole log is dropped and restarts empty at the snapshot's offset.
     */
    void installSnapshot(SnapshotWriter frozen);

    /**
     * {@link #installSnapshot(SnapshotWriter)} of a snapshot whose whole content is at hand:
     * for small contents (tests, tools); the node streams its snapshots through a writer.
     */
    default void installSnapshot(OffsetAndEpoch id, byte[] content) {
        SnapshotWriter writer = createSnapshot(id);
        try {
            writer.append(content);
            writer.freeze();
            installSnapshot(writer);
        } finally {
            writer.close();
        }
    }

    /** The size in bytes of a stored snapshot; it must exist. */
    long snapshotSize(OffsetAndEpoch id);

    /** Up to {@code maxBytes} of a stored snapshot's content starting at {@code position}. */
    byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes);

    @Override
    void close();
}
