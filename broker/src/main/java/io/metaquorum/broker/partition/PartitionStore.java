package io.metaquorum.broker.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The file-system operations the {@link PartitionReconciler} needs, and nothing more: the
 * port between the deterministic reconciliation and a real (NIO) or simulated disk.
 *
 * <p>Every operation names a log dir (one of {@code log.dirs}) and one entry directly under it
 * by its file name; there is no way to name anything deeper or elsewhere, which is how
 * "nothing outside {@code log.dirs} is touched" is kept by construction. An implementation
 * checks that {@code name} is one path segment.
 *
 * <p>Durability: {@link #createPartitions}, {@link #rename} and {@link #deleteRecursively}
 * change the entries of a log dir, and those changes are durable once {@link #sync} of that
 * log dir returns (one directory fsync per pass instead of one per partition). The new
 * partition directories' own contents are durable when {@link #createPartitions} returns.
 *
 * <p>Fault model: any operation may throw {@link IOException}; the reconciler then rescans
 * before it trusts its picture of the disk again. After a crash, {@link #createPartitions}
 * has left, for each partition, either nothing, or a directory whose {@code partition.metadata} is complete or
 * absent (never a torn file); {@link #rename} has happened or not; {@link #deleteRecursively}
 * may have removed part of the tree; an unsynced change may be lost.
 */
public interface PartitionStore {
    /** One entry directly under a log dir; {@code directory} is false for files and for symbolic links. */
    record Entry(String name, boolean directory) {
    }

    /** The entries directly under {@code logDir}, in any order. */
    List<Entry> list(Path logDir) throws IOException;

    /**
     * The bytes of {@code <logDir>/<dir>/partition.metadata}, at most {@code maxBytes} of them
     * (a longer file is returned cut, which the caller rejects), or null when the file does not
     * exist.
     */
    byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) throws IOException;

    /** A partition directory to create: its name and the bytes of its {@code partition.metadata}. */
    record NewPartition(String dir, byte[] metadata) {
    }

    /**
     * Creates each directory {@code <logDir>/<dir>} holding {@code partition.metadata}; when this
     * returns, every directory's contents are durable (their entries in {@code logDir} after
     * {@link #sync}). One call for many partitions lets an implementation overlap their fsyncs.
     * Fails if a {@code dir} exists; after a failure any subset may have been created.
     */
    void createPartitions(Path logDir, List<NewPartition> partitions) throws IOException;

    /** Renames {@code <logDir>/<from>} to {@code <logDir>/<to>} atomically; fails if {@code to} exists. */
    void rename(Path logDir, String from, String to) throws IOException;

    /** Deletes {@code <logDir>/<dir>} and everything below it; symbolic links are removed, never followed. */
    void deleteRecursively(Path logDir, String dir) throws IOException;

    /** Makes the changes to the entries of {@code logDir} durable (a directory fsync). */
    void sync(Path logDir) throws IOException;
}
