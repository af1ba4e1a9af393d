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
 * <p>Durability: {@link #createPartition}, {@link #rename} and {@link #deleteRecursively}
 * change the entries of a log dir, and those changes are durable once {@link #sync} of that
 * log dir returns (one directory fsync per pass instead of one per partition). The new
 * partition directory's own contents are durable when {@link #createPartition} returns.
 *
 * <p>Fault model: any operation may throw {@link IOException}; the reconciler then rescans
 * before it trusts its picture of the disk again. After a crash, {@link #createPartition}
 * has left either nothing, or a directory whose {@code partition.metadata} is complete or
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

    /**
     * Creates the directory {@code <logDir>/<dir>} holding {@code partition.metadata} with
     * {@code metadata}; once this returns the directory's contents are durable (its entry in
     * {@code logDir} after {@link #sync}). Fails if {@code dir} exists.
     */
    void createPartition(Path logDir, String dir, byte[] metadata) throws IOException;

    /** Renames {@code <logDir>/<from>} to {@code <logDir>/<to>} atomically; fails if {@code to} exists. */
    void rename(Path logDir, String from, String to) throws IOException;

    /** Deletes {@code <logDir>/<dir>} and everything below it; symbolic links are removed, never followed. */
    void deleteRecursively(Path logDir, String dir) throws IOException;

    /** Makes the changes to the entries of {@code logDir} durable (a directory fsync). */
    void sync(Path logDir) throws IOException;
}
