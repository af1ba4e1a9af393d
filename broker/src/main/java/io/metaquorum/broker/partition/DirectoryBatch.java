package io.metaquorum.broker.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The order in which a batch of new partition directories in one log dir is written and made
 * durable, with one durability barrier per batch instead of two fsyncs per partition
 * (docs/brokers.md, "Creating directories in batches"):
 * <ol>
 *   <li>for each partition: make {@code <logDir>/<topic>-<partition>/} and write
 *       {@code partition.metadata.tmp} in it (no sync);</li>
 *   <li>fsync every temporary file of the batch (the store overlaps them);</li>
 *   <li>for each partition: rename {@code partition.metadata.tmp} to {@code partition.metadata};</li>
 *   <li>fsync the log dir, once.</li>
 * </ol>
 *
 * <p>Crash argument. A file's name and its bytes become durable separately (POSIX). The name
 * {@code partition.metadata} is only ever given, by an atomic rename in step 3, to a file
 * whose bytes step 2 made durable; so after a crash at any point a directory that has a
 * {@code partition.metadata} has the complete file, never an empty or torn one (and the parser
 * is strict besides: a prefix of the file is malformed). Every other state a crash can leave
 * is a directory without {@code partition.metadata} (empty, or holding only the temporary
 * file, whole or torn) or no directory at all: the scan after the restart ({@link LogDirScan})
 * stages such a directory as a stray, deleted after {@code delete.stale.topic.delay.ms}, and
 * the reconciler creates the partition's directory again. The log dir's fsync in step 4 comes
 * after the renames, so on a journaling file system (ext4, XFS), where an fsync commits every
 * metadata change made before it, the whole batch is durable when it returns. What strict
 * POSIX does not promise without an fsync of each partition directory (which this order
 * leaves out on purpose) is that the rename inside a new directory survives; if it does not,
 * the directory is recognisably incomplete as above and is repaired at the next start.
 *
 * <p>On a failed step the batch stops; the directories it made that have no
 * {@code partition.metadata} yet are removed if the disk lets us (else the next scan makes them
 * strays), and the failure goes to the caller.
 */
final class DirectoryBatch {
    private DirectoryBatch() {
    }

    /** Writes {@code batch} into {@code logDir} in the order above; durable when this returns. */
    static void create(PartitionStore store, Path logDir, List<PartitionStore.NewPartition> batch)
            throws IOException {
        int written = 0;
        int published = 0;
        try {
            for (PartitionStore.NewPartition partition : batch) {
                store.writePartition(logDir, partition);
                written++;
            }
            store.syncPartitionFiles(logDir, batch);
            for (PartitionStore.NewPartition partition : batch) {
                store.publishPartition(logDir, partition.dir());
                published++;
            }
            store.sync(logDir);
        } catch (IOException e) {
            removeUnpublished(store, logDir, batch.subList(published, written), e);
            throw e;
        }
    }

    /** Best effort: a directory without {@code partition.metadata} left behind would be taken for a stray. */
    private static void removeUnpublished(PartitionStore store, Path logDir, List<PartitionStore.NewPartition> left,
                                          IOException failure) {
        for (PartitionStore.NewPartition partition : left) {
            try {
                store.deleteRecursively(logDir, partition.dir());
            } catch (IOException cleanup) {
                failure.addSuppressed(cleanup);
                return;
            }
        }
    }
}
