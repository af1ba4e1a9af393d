package io.metaquorum.sim.system.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.metaquorum.broker.partition.PartitionMetadataFile;
import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.UuidKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The production {@link PartitionReconciler} over the simulated disk, crashed before and after
 * every file-system step of a pass (per directory of the batch the mkdir and the temporary
 * {@code partition.metadata}; then each file's fsync; then each rename; then the log dir's one
 * fsync: the order of {@code DirectoryBatch}), each with many seeds of what the crash keeps.
 * After each crash: no {@code partition.metadata} is torn, and a new reconciler over the same
 * disk ends with exactly the image's partitions, leftovers (directories that lost their rename
 * or their file) staged as strays and deleted after the delay. The same steps split over two
 * passes as a node runs them (the writes, then the publish {@code PUBLISH_DELAY_MS} later): a
 * directory whose temporary file survived whole is published by the scan, one that lost it or
 * kept it torn is staged.
 */
class PartitionReconcilerCrashTest {
    private static final int BROKER = 2;
    private static final Path LOG_DIR = Path.of("/data/a");
    private static final long DELAY_MS = 60_000;
    private static final long T0 = 1_000_000;
    private static final int SEEDS = 30;
    /**
     * File-system operations of one pass creating three partitions: 3 x (mkdir, temporary file),
     * 3 fsyncs, 3 renames, the log dir's fsync.
     */
    private static final int PASS_OPERATIONS = 3 * 2 + 3 + 3 + 1;

    private record Disk(SimFileSystem fs, SimPartitionStore store) {
        static Disk of(long seed, MetadataWriteOrder order) {
            SimFileSystem fs = new SimFileSystem(new Random(seed), CrashMode.KEEP_RANDOM_PREFIX);
            fs.mkdirs(LOG_DIR);
            return new Disk(fs, new SimPartitionStore(fs, order));
        }

        PartitionReconciler reconciler() {
            return new PartitionReconciler(BROKER, List.of(LOG_DIR), DELAY_MS, store, "[node 2] ");
        }

        /** As a node runs it: each batch published {@link PartitionReconciler#PUBLISH_DELAY_MS} after its write. */
        PartitionReconciler delayedReconciler() {
            return new PartitionReconciler(BROKER, List.of(LOG_DIR), DELAY_MS, PartitionReconciler.PUBLISH_DELAY_MS,
                    store, "[node 2] ");
        }

        /** Entry name to the topic id its partition.metadata holds ("none", "malformed", or the id). */
        TreeMap<String, String> contents() throws IOException {
            TreeMap<String, String> contents = new TreeMap<>();
            for (Map.Entry<String, Boolean> entry : fs.list(LOG_DIR)) {
                byte[] bytes = fs.read(LOG_DIR.resolve(entry.getKey()).resolve(PartitionMetadataFile.FILE_NAME));
                String what;
                if (bytes == null) {
                    what = "none";
                } else {
                    try {
                        what = PartitionMetadataFile.parse(bytes).toString();
                    } catch (PartitionMetadataFile.MalformedException e) {
                        what = "malformed";
                    }
                }
                contents.put(entry.getKey(), what);
            }
            return contents;
        }
    }

    private static final UuidKey OLD = ImageScript.id(1);
    private static final UuidKey NEW = ImageScript.id(2);

    private static TreeMap<String, String> live(UuidKey id) {
        TreeMap<String, String> expected = new TreeMap<>();
        for (int p = 0; p < 3; p++) {
            expected.put("t-" + p, id.toString());
        }
        return expected;
    }

    /** Counts of what the crashes left, to show the intermediate states were reached. */
    private static final class Outcomes {
        int nothing;
        int partial;
        int straysStaged;
        int malformed;
    }

    /** Crashes the pass at operation {@code k}, restarts, recovers; returns what the crash left. */
    private static TreeMap<String, String> crashAndRecover(Disk disk, ImageUpdate image, int k, UuidKey expected,
                                                           Outcomes outcomes) throws IOException {
        disk.fs().crashAtOperation(k);
        try {
            disk.reconciler().reconcile(image, T0);
            fail("the pass should have crashed at operation " + k);
        } catch (SimulatedCrash expectedCrash) {
            disk.fs().restart();
        }
        TreeMap<String, String> left = disk.contents();
        PartitionReconciler restarted = disk.reconciler();
        ReconcileResult recovered = restarted.reconcile(image, T0 + 1);
        assertTrue(recovered.complete(), recovered.toString());
        outcomes.straysStaged += recovered.strayed();
        TreeMap<String, String> afterRecovery = disk.contents();
        afterRecovery.keySet().removeIf(name -> name.endsWith("-stray"));
        assertEquals(live(expected), afterRecovery, "crash at " + k + " left " + left);
        ReconcileResult later = restarted.reconcile(image, T0 + 1 + DELAY_MS);
        assertTrue(later.complete());
        assertEquals(live(expected), disk.contents(), "strays are gone after the delay");
        return left;
    }

    @Test
    void aCrashAtAnyStepOfCreationLeavesNoTornMetadataAndRecovers() throws IOException {
        ImageUpdate image = new ImageScript().create("t", OLD, new int[] {2, 1}, new int[] {1, 2}, new int[] {2});
        Outcomes outcomes = new Outcomes();
        for (int k = 1; k <= PASS_OPERATIONS; k++) {
            for (long seed = 0; seed < SEEDS; seed++) {
                Disk disk = Disk.of(seed * 100 + k, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC);
                TreeMap<String, String> left = crashAndRecover(disk, image, k, OLD, outcomes);
                assertTrue(!left.containsValue("malformed"), "crash at " + k + ", seed " + seed + ": " + left);
                if (left.isEmpty()) {
                    outcomes.nothing++;
                } else if (!left.equals(live(OLD))) {
                    outcomes.partial++;
                }
            }
        }
        assertTrue(outcomes.nothing > 0 && outcomes.partial > 0 && outcomes.straysStaged > 0,
                "nothing " + outcomes.nothing + ", partial " + outcomes.partial + ", strays " + outcomes.straysStaged);
    }

    @Test
    void aCrashAtAnyStepOfAWriteAndItsDelayedPublishLeavesNoTornMetadataAndRecovers() throws IOException {
        ImageUpdate image = new ImageScript().create("t", OLD, new int[] {2, 1}, new int[] {1, 2}, new int[] {2});
        long publishAtMs = T0 + PartitionReconciler.PUBLISH_DELAY_MS;
        int finishedByTheScan = 0;
        int straysStaged = 0;
        for (int k = 1; k <= PASS_OPERATIONS; k++) {
            for (long seed = 0; seed < SEEDS; seed++) {
                Disk disk = Disk.of(seed * 100 + k, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC);
                disk.fs().crashAtOperation(k);
                PartitionReconciler running = disk.delayedReconciler();
                try {
                    // The write pass (3 x mkdir and temporary file), then the publish pass (the rest).
                    assertTrue(running.reconcile(image, T0).complete());
                    running.reconcile(image, publishAtMs);
                    fail("the passes should have crashed at operation " + k);
                } catch (SimulatedCrash expectedCrash) {
                    disk.fs().restart();
                }
                TreeMap<String, String> left = disk.contents();
                assertTrue(!left.containsValue("malformed"), "crash at " + k + ", seed " + seed + ": " + left);
                PartitionReconciler restarted = disk.delayedReconciler();
                ReconcileResult recovered = restarted.reconcile(image, publishAtMs + 1);
                assertTrue(recovered.complete(), recovered.toString());
                straysStaged += recovered.strayed();
                long unpublishedLeft = left.values().stream().filter("none"::equals).count();
                finishedByTheScan += recovered.strayed() < unpublishedLeft ? 1 : 0;
                // What the recovery created again is published a delay later; then all of it is in place.
                assertTrue(restarted.reconcile(image, publishAtMs + 1 + PartitionReconciler.PUBLISH_DELAY_MS)
                        .complete());
                TreeMap<String, String> live = disk.contents();
                live.keySet().removeIf(name -> name.endsWith("-stray"));
                assertEquals(live(OLD), live, "crash at " + k + ", seed " + seed + " left " + left);
            }
        }
        assertTrue(finishedByTheScan > 0 && straysStaged > 0, "directories whose whole temporary file the scan"
                + " published: " + finishedByTheScan + ", torn or empty ones staged as strays: " + straysStaged);
    }

    @Test
    void withoutTheFsyncBeforeTheRenameACrashCanTearTheMetadata() throws IOException {
        ImageUpdate image = new ImageScript().create("t", OLD, new int[] {2, 1}, new int[] {1, 2}, new int[] {2});
        Outcomes outcomes = new Outcomes();
        int passOperations = 3 * 2 + 3 + 1;
        for (int k = 1; k <= passOperations; k++) {
            for (long seed = 0; seed < SEEDS; seed++) {
                Disk disk = Disk.of(seed * 100 + k, MetadataWriteOrder.BROKEN_RENAME_BEFORE_SYNC);
                TreeMap<String, String> left = crashAndRecover(disk, image, k, OLD, outcomes);
                outcomes.malformed += left.containsValue("malformed") ? 1 : 0;
            }
        }
        assertTrue(outcomes.malformed > 0, "the broken order must be caught by some crash");
    }

    @Test
    void aCrashWhileADeletedTopicIsRecreatedUnderItsNameRecovers() throws IOException {
        ImageScript script = new ImageScript();
        ImageUpdate before = script.create("t", OLD, new int[] {2}, new int[] {2}, new int[] {2});
        // The running broker is handed the changes of both images since the one it reconciled.
        ImageUpdate after = script.delete("t").then(script.create("t", NEW, new int[] {2}, new int[] {2},
                new int[] {2}));
        Outcomes outcomes = new Outcomes();
        // Deleting a directory: its partition.metadata, then itself; three partitions; then the creation batch
        // (with its own log-dir fsync) and the pass's sync for the deletions.
        int passOperations = 3 * 2 + PASS_OPERATIONS + 1;
        for (int k = 1; k <= passOperations; k++) {
            for (long seed = 0; seed < SEEDS; seed++) {
                Disk disk = Disk.of(seed * 100 + k, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC);
                assertTrue(disk.reconciler().reconcile(before, T0 - 1).complete());
                PartitionReconciler running = disk.reconciler();
                assertTrue(running.reconcile(before, T0 - 1).complete());
                disk.fs().crashAtOperation(k);
                try {
                    running.reconcile(after, T0);
                    fail("the pass should have crashed at operation " + k);
                } catch (SimulatedCrash crash) {
                    disk.fs().restart();
                }
                TreeMap<String, String> left = disk.contents();
                assertTrue(!left.containsValue("malformed"), left.toString());
                // Deletions precede creations, so an old directory that survived means no new one did.
                outcomes.partial += left.containsValue(OLD.toString()) ? 1 : 0;
                ReconcileResult recovered = disk.reconciler().reconcile(after, T0 + 1);
                assertTrue(recovered.complete());
                outcomes.straysStaged += recovered.strayed();
                TreeMap<String, String> live = disk.contents();
                live.keySet().removeIf(name -> name.endsWith("-stray"));
                assertEquals(live(NEW), live, "crash at " + k + ", seed " + seed + " left " + left);
            }
        }
        assertTrue(outcomes.partial > 0 && outcomes.straysStaged > 0,
                "old directories surviving a crash " + outcomes.partial + ", strays " + outcomes.straysStaged);
    }

    @Test
    void aDiskErrorAtAnyStepIsRetriedToCompletion() throws IOException {
        ImageUpdate image = new ImageScript().create("t", OLD, new int[] {2, 1}, new int[] {1, 2}, new int[] {2});
        for (int k = 1; k <= PASS_OPERATIONS; k++) {
            Disk disk = Disk.of(k, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC);
            PartitionReconciler reconciler = disk.reconciler();
            disk.fs().failAtOperation(k);
            ReconcileResult first = reconciler.reconcile(image, T0);
            assertFalse(first.complete(), "operation " + k + " failed, so the pass is not complete");
            ReconcileResult retry = reconciler.reconcile(image, T0 + 100);
            assertTrue(retry.complete(), retry.toString());
            TreeMap<String, String> contents = disk.contents();
            contents.keySet().removeIf(name -> name.endsWith("-stray"));
            assertEquals(live(OLD), contents, "after a disk error at operation " + k);
        }
    }

    @Test
    void underStrictPosixACrashAfterACompletePassLeavesRecognisablyIncompleteDirectoriesThatAreRepaired()
            throws IOException {
        ImageUpdate image = new ImageScript().create("t", OLD, new int[] {2, 1}, new int[] {1, 2}, new int[] {2});
        SimFileSystem fs = new SimFileSystem(new Random(1), CrashMode.LOSE_ALL_UNSYNCED);
        fs.mkdirs(LOG_DIR);
        Disk disk = new Disk(fs, new SimPartitionStore(fs, MetadataWriteOrder.TEMP_SYNC_RENAME_SYNC));
        assertTrue(disk.reconciler().reconcile(image, T0).complete());
        fs.crash();
        fs.restart();
        // The log dir's fsync kept the directories; no partition directory was fsynced, so their
        // entries (the temporary file and its rename) are lost: each is empty, never torn.
        TreeMap<String, String> left = disk.contents();
        assertEquals(List.of("none"), List.copyOf(new java.util.TreeSet<>(left.values())), left.toString());
        ReconcileResult recovered = disk.reconciler().reconcile(image, T0 + 1);
        assertTrue(recovered.complete());
        assertEquals(3, recovered.strayed(), "each incomplete directory is staged as a stray");
        assertEquals(3, recovered.created(), "and created again");
        TreeMap<String, String> after = disk.contents();
        after.keySet().removeIf(name -> name.endsWith("-stray"));
        assertEquals(live(OLD), after);
    }
}
