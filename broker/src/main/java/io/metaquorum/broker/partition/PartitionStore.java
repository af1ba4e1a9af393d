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
 * <p>Durability: a batch of new partition directories is written in steps that
 * {@link DirectoryBatch} orders: {@link #writePartition} when the reconciler creates them, and
 * later, once the kernel has written them back, {@link #syncPartitionFiles},
 * {@link #publishPartition}, then {@link #sync} of the log dir (one directory fsync per batch
 * instead of two fsyncs per partition). {@link #rename} and {@link #deleteRecursively} change
 * the entries of a log dir, and those changes are durable once {@link #sync} of that log dir
 * returns.
 *
 * <p>Fault model: any operation may throw {@link IOException}; the reconciler then rescans
 * before it trusts its picture of the disk again. After a crash, a partition directory is
 * absent, or holds a {@code partition.metadata} whose bytes are complete (they were synced
 * before the rename that gave the file its name), or holds no {@code partition.metadata}
 * (only the temporary file, or nothing), which the scan stages as a stray; {@link #rename} has
 * happened or not; {@link #deleteRecursively} may have removed part of the tree; an unsynced
 * change may be lost.
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

    /**
     * The bytes of {@code <logDir>/<dir>/partition.metadata.tmp}, the metadata of a directory
     * written and not yet published (at most {@code maxBytes} of them), or null when the file
     * does not exist.
     */
    byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) throws IOException;

    /** A partition directory to create: its name and the bytes of its {@code partition.metadata}. */
    record NewPartition(String dir, byte[] metadata) {
    }

    /**
     * Creates the directory {@code <logDir>/<dir>} and in it the temporary file
     * {@code partition.metadata.tmp} holding the partition's metadata; nothing is synced. Fails
     * if {@code dir} exists; after a failure the directory may exist, empty or with a partial
     * temporary file (an implementation removes what it made if it can).
     */
    void writePartition(Path logDir, NewPartition partition) throws IOException;

    /**
     * Forces the bytes of the temporary {@code partition.metadata.tmp} of each of these
     * directories to the disk (an fsync of each file; an implementation may overlap them, so the
     * file system commits them together). After a failure any subset may be synced.
     */
    void syncPartitionFiles(Path logDir, List<NewPartition> partitions) throws IOException;

    /**
     * Renames {@code <logDir>/<dir>/partition.metadata.tmp} to {@code partition.metadata},
     * atomically: the file has its final name only once its bytes are synced.
     */
    void publishPartition(Path logDir, String dir) throws IOException;

    /** Renames {@code <logDir>/<from>} to {@code <logDir>/<to>} atomically; fails if {@code to} exists. */
    void rename(Path logDir, String from, String to) throws IOException;

    /** Deletes {@code <logDir>/<dir>} and everything below it; symbolic links are removed, never followed. */
    void deleteRecursively(Path logDir, String dir) throws IOException;

    /** Makes the changes to the entries of {@code logDir} durable (a directory fsync). */
    void sync(Path logDir) throws IOException;
}
