package io.metaquorum.raft.storage;

/**
 * The content of one snapshot as it is being written, chunk by chunk, before the log knows
 * of it (KIP-630: a snapshot is written aside, then made the log start in one step). A
 * writer comes from {@link RaftLog#createSnapshot}, takes {@link #append}s, is made durable
 * by {@link #freeze}, and only then may be given to {@link RaftLog#installSnapshot} on the
 * driver thread. Appends and freeze may run on any single thread (the snapshot-writer
 * thread, or the driver for a download); the writer is not shared between threads at once.
 *
 * <p>Transitions: open --append*--> open --freeze--> frozen --install--> installed;
 * {@link #close} from open or frozen discards what was written (a temporary file is
 * deleted), and after install it does nothing.
 *
 * <p>Invariant: {@link #sizeBytes()} is the sum of the chunks appended; nothing is appended
 * once frozen.
 */
public interface SnapshotWriter extends AutoCloseable {
    /** The snapshot this writer produces: its end offset and the epoch of its last record. */
    OffsetAndEpoch id();

    /** Adds {@code chunk} (any length, possibly empty) at the end of the content. */
    void append(byte[] chunk);

    /** The bytes appended so far. */
    long sizeBytes();

    /** Makes the content complete and durable (a file is forced to disk); appends end here. */
    void freeze();

    boolean isFrozen();

    /** Discards the content unless it was installed; idempotent. */
    @Override
    void close();
}
