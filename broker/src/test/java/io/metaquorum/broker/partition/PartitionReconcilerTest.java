package io.metaquorum.broker.partition;

import static io.metaquorum.broker.partition.TestImages.base64;
import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.UuidKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The reconciliation against an in-memory store: creation, deletion, strays and their delay, placement. */
class PartitionReconcilerTest {
    private static final int BROKER = 4;
    private static final long DELAY_MS = 60_000;
    private static final long T0 = 1_700_000_000_000L;
    private static final Path A = Path.of("/data/a");
    private static final Path B = Path.of("/data/b");
    private static final Path C = Path.of("/data/c");
    private static final UuidKey ID1 = id(1);
    private static final UuidKey ID2 = id(2);

    private final InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B, C));
    private final TestImages images = new TestImages();

    private PartitionReconciler reconciler() {
        return new PartitionReconciler(BROKER, List.of(A, B, C), DELAY_MS, store, "[node 4] ");
    }

    private static String metadata(UuidKey id) {
        return "version: 0\ntopic_id: " + base64(id);
    }

    private static InMemoryPartitionStore.Node dir(String metadata) {
        return new InMemoryPartitionStore.Node(true, metadata == null ? null : metadata.getBytes(StandardCharsets.US_ASCII),
                0);
    }

    private static TreeMap<String, String> expected(String... pairs) {
        TreeMap<String, String> map = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void createsADirectoryForEveryPartitionThatListsThisBroker() {
        ImageUpdate image = images.create("orders.v1_eu-west", ID1, replicas(4, 5), replicas(5, 6), replicas(6, 4));
        ReconcileResult result = reconciler().reconcile(image, T0);
        assertTrue(result.complete());
        assertEquals(2, result.created());
        assertEquals(Long.MAX_VALUE, result.nextDeadlineMs());
        assertEquals(2, store.syncs(), "one sync per log dir changed");
        assertEquals(expected("a/orders.v1_eu-west-0", metadata(ID1), "b/orders.v1_eu-west-2", metadata(ID1)),
                store.describe());
    }

    @Test
    void deletesTheDirectoriesOfADeletedTopic() {
        PartitionReconciler reconciler = reconciler();
        reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        reconciler.reconcile(images.create("u", ID2, replicas(4)), T0);
        ReconcileResult result = reconciler.reconcile(images.delete("t"), T0 + 1);
        assertEquals(2, result.removed());
        assertEquals(0, result.strayed());
        assertEquals(expected("c/u-0", metadata(ID2)), store.describe());
    }

    @Test
    void deletesAPartitionReassignedAwayAndCreatesOneReassignedHere() {
        PartitionReconciler reconciler = reconciler();
        reconciler.reconcile(images.create("t", ID1, replicas(4, 5), replicas(5, 6)), T0);
        reconciler.reconcile(images.reassign("t", 0, 5, 6), T0);
        ReconcileResult result = reconciler.reconcile(images.reassign("t", 1, 6, 4), T0);
        assertEquals(1, result.created());
        assertEquals(expected("a/t-1", metadata(ID1)), store.describe());
    }

    @Test
    void aTopicDeletedAndRecreatedWhileDownLeavesAStrayThatIsDeletedAfterTheDelay() {
        reconciler().reconcile(images.create("t", ID1, replicas(4)), T0);
        images.delete("t");
        ImageUpdate recreated = images.create("t", ID2, replicas(4, 5));

        PartitionReconciler restarted = reconciler();
        ReconcileResult result = restarted.reconcile(recreated, T0 + 10);
        assertEquals(1, result.strayed());
        assertEquals(1, result.created());
        assertEquals(T0 + 10 + DELAY_MS, result.nextDeadlineMs());
        String stray = "a/t-0." + (T0 + 10) + "-stray";
        assertEquals(expected(stray, metadata(ID1), "a/t-0", metadata(ID2)), store.describe());

        ReconcileResult early = restarted.reconcile(recreated, T0 + 10 + DELAY_MS - 1);
        assertTrue(early.changedNothing());
        assertTrue(store.describe().containsKey(stray));
        ReconcileResult due = restarted.reconcile(recreated, T0 + 10 + DELAY_MS);
        assertEquals(1, due.straysDeleted());
        assertEquals(Long.MAX_VALUE, due.nextDeadlineMs());
        assertEquals(expected("a/t-0", metadata(ID2)), store.describe());
    }

    @Test
    void theStrayDeadlineSurvivesARestart() {
        reconciler().reconcile(images.create("t", ID1, replicas(4)), T0);
        ImageUpdate deleted = images.delete("t");
        reconciler().reconcile(deleted, T0 + 5);
        String stray = "a/t-0." + (T0 + 5) + "-stray";
        assertEquals(expected(stray, metadata(ID1)), store.describe());

        PartitionReconciler second = reconciler();
        ReconcileResult result = second.reconcile(deleted, T0 + 5 + DELAY_MS / 2);
        assertTrue(result.changedNothing());
        assertEquals(T0 + 5 + DELAY_MS, result.nextDeadlineMs(), "the deadline is not restarted");
        assertTrue(reconciler().reconcile(deleted, T0 + 5 + DELAY_MS - 1).changedNothing());
        assertEquals(1, reconciler().reconcile(deleted, T0 + 5 + DELAY_MS).straysDeleted());
        assertEquals(expected(), store.describe());
    }

    @Test
    void aPartitionDirectoryWithoutAValidMetadataFileIsAStrayNeverGuessed() {
        ImageUpdate image = images.create("t", ID1, replicas(4), replicas(4), replicas(4), replicas(4));
        store.put(A, "t-0", dir(null));
        store.put(A, "t-1", dir("version: 1\ntopic_id: " + base64(ID1)));
        store.put(A, "t-2", dir("version: 0\ntopic_id: " + base64(ID1) + "\n\n"));
        store.put(A, "t-3", dir("version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA"));
        ReconcileResult result = reconciler().reconcile(image, T0);
        assertEquals(4, result.strayed());
        assertEquals(4, result.created());
        TreeMap<String, String> onDisk = store.describe();
        for (int p = 0; p < 4; p++) {
            assertTrue(onDisk.keySet().stream().anyMatch(name -> name.startsWith("a/t-")
                    && name.endsWith("." + T0 + "-stray")), onDisk.toString());
        }
        assertEquals(4, onDisk.values().stream().filter(metadata(ID1)::equals).count(), onDisk.toString());
        assertEquals(8, onDisk.size(), onDisk.toString());
    }

    @Test
    void aValidMetadataFileWithATrailingNewlineIsAccepted() {
        ImageUpdate image = images.create("t", ID1, replicas(4));
        store.put(B, "t-0", dir(metadata(ID1) + "\n"));
        ReconcileResult result = reconciler().reconcile(image, T0);
        assertTrue(result.changedNothing());
        assertEquals(0, store.mutations());
    }

    @Test
    void entriesThatAreNotPartitionDirectoriesAreLeftAloneAndReportedOnce() {
        store.put(A, "meta.properties", new InMemoryPartitionStore.Node(false, null, 0));
        store.put(A, "lost+found", dir(null));
        store.put(A, "t-01", dir(null));
        store.put(A, "t-", dir(null));
        store.put(B, "t-0", new InMemoryPartitionStore.Node(false, null, 0));
        store.put(B, "kafka-0.0123456789abcdef0123456789abcdef-stray", dir(metadata(ID1)));
        TreeMap<String, String> before = store.describe();
        PartitionReconciler reconciler = reconciler();
        ReconcileResult first = reconciler.reconcile(images.create("t", ID1, replicas(4)), T0);
        assertEquals(6, first.leftAlone().size(), first.leftAlone().toString());
        TreeMap<String, String> after = store.describe();
        after.remove("a/t-0");
        assertEquals(before, after);
        assertEquals(metadata(ID1), store.describe().get("a/t-0"));

        store.failNextOperations(1);
        assertFalse(reconciler.reconcile(images.create("u", ID2, replicas(4)), T0).complete());
        ReconcileResult rescanned = reconciler.reconcile(images.latest(), T0);
        assertTrue(rescanned.complete());
        assertEquals(List.of(), rescanned.leftAlone(), "reported once, also across a rescan");
    }

    @Test
    void aNameTakenByAFileInOneLogDirGoesToAnother() {
        store.put(A, "t-0", new InMemoryPartitionStore.Node(false, null, 0));
        reconciler().reconcile(images.create("t", ID1, replicas(4)), T0);
        assertEquals(expected("a/t-0", "file", "b/t-0", metadata(ID1)), store.describe());
    }

    @Test
    void newPartitionsGoToTheLogDirWithTheFewestPartitionsTiesToTheFirst() {
        PartitionReconciler reconciler = reconciler();
        reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4), replicas(4), replicas(4)), T0);
        assertEquals(expected("a/t-0", metadata(ID1), "a/t-3", metadata(ID1), "b/t-1", metadata(ID1),
                "c/t-2", metadata(ID1)), store.describe());
        reconciler.reconcile(images.reassign("t", 1, 5), T0);
        reconciler.reconcile(images.reassign("t", 2, 5), T0);
        reconciler.reconcile(images.create("u", ID2, replicas(4), replicas(4), replicas(4)), T0);
        TreeMap<String, String> onDisk = store.describe();
        assertEquals(metadata(ID2), onDisk.get("b/u-0"));
        assertEquals(metadata(ID2), onDisk.get("c/u-1"));
        assertEquals(metadata(ID2), onDisk.get("b/u-2"));
    }

    @Test
    void reconcilingTheSameImageTwiceDoesNothingTheSecondTime() {
        PartitionReconciler reconciler = reconciler();
        ImageUpdate image = images.create("t", ID1, replicas(4), replicas(5, 4), replicas(5));
        assertEquals(2, reconciler.reconcile(image, T0).created());
        int mutations = store.mutations();
        assertTrue(reconciler.reconcile(image, T0 + 1).changedNothing());
        assertTrue(reconciler.reconcile(images.reloaded(), T0 + 2).changedNothing(), "an equal image, no object shared");
        assertTrue(reconciler().reconcile(image, T0 + 3).changedNothing(), "after a restart");
        assertEquals(mutations, store.mutations());
        assertEquals(2, store.syncs());
    }

    @Test
    void aDiskErrorLeavesThePassIncompleteAndTheNextPassFinishesIt() {
        PartitionReconciler reconciler = reconciler();
        store.setReadOnly(A, true);
        store.setReadOnly(B, true);
        store.setReadOnly(C, true);
        ImageUpdate image = images.create("t", ID1, replicas(4), replicas(4));
        ReconcileResult failed = reconciler.reconcile(image, T0);
        assertFalse(failed.complete());
        assertTrue(failed.diskErrors().get(0).contains("/data/a/t-0"), failed.diskErrors().toString());
        store.setReadOnly(A, false);
        store.setReadOnly(B, false);
        store.setReadOnly(C, false);
        ReconcileResult retried = reconciler.reconcile(image, T0 + 100);
        assertTrue(retried.complete());
        assertEquals(expected("a/t-0", metadata(ID1), "b/t-1", metadata(ID1)), store.describe());
    }

    @Test
    void aStrayOfATopicIdThatIsAssignedAgainIsRenamedBack() {
        ImageUpdate image = images.create("t", ID1, replicas(4));
        reconciler().reconcile(image, T0);
        reconciler().reconcile(ImageUpdate.unchanged(MetadataImage.EMPTY), T0 + 1);
        assertEquals(expected("a/t-0." + (T0 + 1) + "-stray", metadata(ID1)), store.describe());
        ReconcileResult result = reconciler().reconcile(image, T0 + 2);
        assertEquals(1, result.restored());
        assertEquals(0, result.created());
        assertEquals(expected("a/t-0", metadata(ID1)), store.describe());
    }

    @Test
    void aSecondDirectoryOfThePartitionIsAStray() {
        store.put(A, "t-0", dir(metadata(ID1)));
        store.put(C, "t-0", dir(metadata(ID1)));
        ReconcileResult result = reconciler().reconcile(images.create("t", ID1, replicas(4)), T0);
        assertEquals(1, result.strayed());
        assertEquals(expected("a/t-0", metadata(ID1), "c/t-0." + T0 + "-stray", metadata(ID1)), store.describe());
    }

    @Test
    void twoStraysOfOnePartitionInOneMillisecondGetDistinctNames() {
        store.put(A, "t-0", dir(null));
        store.put(A, "t-0." + T0 + "-stray", dir(null));
        reconciler().reconcile(images.create("t", ID1, replicas(4)), T0);
        assertEquals(expected("a/t-0." + T0 + "-stray", "dir", "a/t-0." + T0 + "_1-stray", "dir",
                "a/t-0", metadata(ID1)), store.describe());
    }
}
