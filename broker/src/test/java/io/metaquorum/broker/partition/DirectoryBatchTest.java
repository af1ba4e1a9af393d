package io.metaquorum.broker.partition;

import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The order of a batch of new partition directories ({@link DirectoryBatch}) as the reconciler
 * drives it, read from the operations an in-memory store records: per log dir, every
 * directory and temporary file first, then one call that syncs the files, then the renames,
 * then one fsync of the log dir and no other; and the per-pass bound
 * ({@link PartitionReconciler#CREATES_PER_PASS_MAX}).
 */
class DirectoryBatchTest {
    private static final int BROKER = 4;
    private static final long T0 = 1_700_000_000_000L;
    private static final Path A = Path.of("/data/a");
    private static final Path B = Path.of("/data/b");
    private static final Path C = Path.of("/data/c");
    private static final List<Path> LOG_DIRS = List.of(A, B, C);

    private final InMemoryPartitionStore store = new InMemoryPartitionStore(LOG_DIRS);
    private final TestImages images = new TestImages();

    private PartitionReconciler reconciler() {
        return new PartitionReconciler(BROKER, LOG_DIRS, 60_000, store, "[node 4] ");
    }

    private static int[][] onThisBroker(int partitions) {
        int[][] replicas = new int[partitions][];
        for (int p = 0; p < partitions; p++) {
            replicas[p] = replicas(BROKER, 5, 6);
        }
        return replicas;
    }

    /** The step of an operation ("write", "sync-files", "publish", "sync", ...) by log dir, in order. */
    private TreeMap<Path, List<String>> stepsByLogDir() {
        TreeMap<Path, List<String>> steps = new TreeMap<>();
        for (String operation : store.operations()) {
            String[] words = operation.split(" ");
            Path path = Path.of(words[1]);
            Path logDir = LOG_DIRS.contains(path) ? path : path.getParent();
            steps.computeIfAbsent(logDir, dir -> new ArrayList<>()).add(words[0]);
        }
        return steps;
    }

    /** Checks one log dir's steps are batches in the order: writes, one file sync, publishes, one log-dir sync. */
    private static int assertBatches(Path logDir, List<String> steps) {
        int batches = 0;
        int i = 0;
        while (i < steps.size()) {
            int writes = 0;
            while (i < steps.size() && steps.get(i).equals("write")) {
                writes++;
                i++;
            }
            assertTrue(writes > 0, logDir + ": a batch starts with its writes, got " + steps);
            assertEquals("sync-files", steps.get(i++), logDir + ": the files are synced after all writes");
            for (int p = 0; p < writes; p++) {
                assertEquals("publish", steps.get(i++), logDir + ": renamed only after the file sync");
            }
            assertEquals("sync", steps.get(i++), logDir + ": one log-dir sync after the renames");
            batches++;
        }
        return batches;
    }

    @Test
    void eachLogDirGetsOneBatchWhoseSyncFollowsTheFileSyncsAndRenames() {
        ImageUpdate update = images.create("t", id(1), onThisBroker(30));
        ReconcileResult result = reconciler().reconcile(update, T0);
        assertTrue(result.complete(), result.toString());
        assertEquals(30, result.created());
        TreeMap<Path, List<String>> steps = stepsByLogDir();
        assertEquals(LOG_DIRS, List.copyOf(steps.keySet()), "placement spreads the partitions over every log dir");
        for (Path logDir : LOG_DIRS) {
            assertEquals(1, assertBatches(logDir, steps.get(logDir)), logDir + ": " + steps.get(logDir));
            assertEquals(10, steps.get(logDir).stream().filter("publish"::equals).count());
        }
        assertEquals(3, store.syncs(), "one directory fsync per log dir for the pass, none more");
    }

    @Test
    void aPassStopsAtTheCreationBoundAndTheNextGoesOnAfterActingOnADelete() {
        int partitions = 2 * PartitionReconciler.CREATES_PER_PASS_MAX + 100;
        PartitionReconciler reconciler = reconciler();
        images.create("gone", id(9), onThisBroker(3));
        assertTrue(reconciler.reconcile(images.take(), T0).complete());
        images.create("big", id(1), onThisBroker(partitions));
        store.clearOperations();

        ReconcileResult first = reconciler.reconcile(images.take(), T0);
        assertFalse(first.complete());
        assertTrue(first.creationsLeft());
        assertFalse(first.failed());
        assertEquals(PartitionReconciler.CREATES_PER_PASS_MAX, first.created());
        TreeMap<Path, List<String>> steps = stepsByLogDir();
        for (Path logDir : LOG_DIRS) {
            assertEquals(1, assertBatches(logDir, steps.get(logDir)), "one barrier per log dir in a pass");
        }

        images.delete("gone");
        store.clearOperations();
        ReconcileResult second = reconciler.reconcile(images.take(), T0);
        assertEquals(3, second.removed(), "the delete is acted on between two bounded passes");
        assertEquals(PartitionReconciler.CREATES_PER_PASS_MAX, second.created());
        assertTrue(second.creationsLeft());
        assertTrue(store.operations().get(0).startsWith("delete "), "deletions go first: " + store.operations().get(0));

        ReconcileResult third = reconciler.reconcile(images.take(), T0);
        assertTrue(third.complete(), third.toString());
        assertEquals(100, third.created());
        assertEquals(partitions, store.describe().size());
        ReconcileResult again = reconciler.reconcile(images.take(), T0);
        assertTrue(again.complete() && again.changedNothing(), again.toString());
    }

    @Test
    void withAPublishDelayTheWritesComeFirstAndTheirPublishAtTheDeadlineWithoutWhatWasDeletedMeanwhile() {
        long publishDelayMs = 35_000;
        PartitionReconciler reconciler = new PartitionReconciler(BROKER, List.of(A), 60_000, publishDelayMs, store,
                "[node 4] ");
        images.create("kept", id(1), onThisBroker(2));
        images.create("gone", id(2), onThisBroker(2));
        ReconcileResult written = reconciler.reconcile(images.take(), T0);
        assertTrue(written.complete(), written.toString());
        assertEquals(4, written.created());
        assertEquals(List.of("write", "write", "write", "write"), stepsByLogDir().get(A), "no sync before the delay");
        assertEquals(T0 + publishDelayMs, written.nextDeadlineMs(), "the publish is the next deadline");

        images.delete("gone");
        ImageUpdate deleted = images.take();
        store.clearOperations();
        ReconcileResult early = reconciler.reconcile(deleted, T0 + publishDelayMs - 1);
        assertEquals(2, early.removed());
        assertEquals(List.of("delete", "delete", "sync"), stepsByLogDir().get(A), "nothing published a ms early");

        store.clearOperations();
        ReconcileResult due = reconciler.reconcile(deleted, T0 + publishDelayMs);
        assertTrue(due.complete() && due.changedNothing(), due.toString());
        assertEquals(List.of("sync-files", "publish", "publish", "sync"), stepsByLogDir().get(A),
                "the two directories still live, in one batch");
        assertEquals(Long.MAX_VALUE, due.nextDeadlineMs());
        assertEquals(2, store.describe().size());
    }
}
