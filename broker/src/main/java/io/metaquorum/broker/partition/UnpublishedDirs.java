package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.UuidKey;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The live partition directories written and not yet published ({@link DirectoryBatch}: their
 * {@code partition.metadata.tmp} neither synced nor renamed), in batches, first due first. Part
 * of the reconciler's picture of the disk: dropped with it after a disk error, and found again
 * by the scan.
 */
final class UnpublishedDirs {
    /** One directory of a batch: the partition it holds, so the publish can tell whether it is still live there. */
    record Dir(UuidKey topicId, int partition, PartitionStore.NewPartition written) {
    }

    /** Directories of one log dir to publish at {@code dueAtMs} or later. */
    record Batch(int logDir, long dueAtMs, List<Dir> dirs) {
        Batch {
            dirs = List.copyOf(dirs);
        }
    }

    private final ArrayDeque<Batch> batches = new ArrayDeque<>();

    /** What {@code dirs} write, in their order. */
    static List<PartitionStore.NewPartition> written(List<Dir> dirs) {
        List<PartitionStore.NewPartition> written = new ArrayList<>(dirs.size());
        for (Dir dir : dirs) {
            written.add(dir.written());
        }
        return written;
    }

    void add(Batch batch) {
        if (!batch.dirs().isEmpty()) {
            batches.addLast(batch);
        }
    }

    /**
     * Takes the batches due at {@code nowMs}, in the order they were added; stops at the first
     * not due (batches come due in the order they were added, unless the wall clock stepped
     * back, and then a later one waits for the one before it).
     */
    List<Batch> takeDue(long nowMs) {
        List<Batch> due = new ArrayList<>();
        while (!batches.isEmpty() && batches.peekFirst().dueAtMs() <= nowMs) {
            due.add(batches.removeFirst());
        }
        return due;
    }

    /** When the first batch falls due, {@link Long#MAX_VALUE} when none waits. */
    long firstDueMs() {
        return batches.isEmpty() ? Long.MAX_VALUE : batches.peekFirst().dueAtMs();
    }
}
