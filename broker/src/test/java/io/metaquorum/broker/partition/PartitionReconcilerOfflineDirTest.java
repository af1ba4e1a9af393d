package io.metaquorum.broker.partition;

import static io.metaquorum.broker.partition.TestImages.base64;
import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.UuidKey;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A full disk takes its log dir offline until the broker restarts; the others go on. */
class PartitionReconcilerOfflineDirTest {
    private static final int BROKER = 4;
    private static final long T0 = 1_700_000_000_000L;
    private static final Path A = Path.of("/data/a");
    private static final Path B = Path.of("/data/b");
    private static final UuidKey ID1 = id(1);
    private static final UuidKey ID2 = id(2);
    private static final UuidKey ID3 = id(3);

    private final TestImages images = new TestImages();

    private static String metadata(UuidKey id) {
        return "version: 0\ntopic_id: " + base64(id);
    }

    private static PartitionReconciler reconciler(InMemoryPartitionStore store, List<Path> dirs) {
        return new PartitionReconciler(BROKER, dirs, 60_000, store, "[node 4] ");
    }

    @Test
    void aFullLogDirGoesOfflineAndNewPartitionsGoToTheOthers() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B));
        PartitionReconciler reconciler = reconciler(store, List.of(A, B));
        reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        assertEquals(List.of("a/t-0", "b/t-1"), List.copyOf(store.describe().keySet()));

        store.setFull(A, true);
        ReconcileResult full = reconciler.reconcile(images.create("u", ID2, replicas(4), replicas(4)), T0 + 1);
        assertTrue(full.complete(), "a full disk is not a disk error to retry: " + full);
        assertFalse(full.failed());
        assertEquals(List.of(A), reconciler.offlineLogDirs());
        // u-0 was planned in a (fewest partitions, first) and is left to it; u-1 went to b.
        assertEquals(List.of("a/t-0", "b/t-1", "b/u-1"), List.copyOf(store.describe().keySet()));

        ReconcileResult next = reconciler.reconcile(images.create("v", ID3, replicas(4), replicas(4)), T0 + 2);
        assertTrue(next.complete());
        assertEquals(2, next.created(), "both go to b, the one log dir online");
        assertEquals(List.of("a/t-0", "b/t-1", "b/u-1", "b/v-0", "b/v-1"), List.copyOf(store.describe().keySet()));
    }

    /** t-0 in a and t-1 in b; then a fills while u-0 is created in it: a is offline, u-0 stays with it. */
    private PartitionReconciler withAOffline(InMemoryPartitionStore store) {
        PartitionReconciler reconciler = reconciler(store, List.of(A, B));
        reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        store.setFull(A, true);
        reconciler.reconcile(images.create("u", ID2, replicas(4)), T0 + 1);
        assertEquals(List.of(A), reconciler.offlineLogDirs());
        return reconciler;
    }

    @Test
    void nothingIsDoneInAnOfflineLogDirNotEvenDeletions() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B));
        PartitionReconciler reconciler = withAOffline(store);
        store.setFull(A, false);
        store.clearOperations();

        ReconcileResult deleted = reconciler.reconcile(images.delete("t"), T0 + 2);
        assertTrue(deleted.complete());
        assertEquals(1, deleted.removed(), "t-1 in b only");
        TreeMap<String, String> left = store.describe();
        assertTrue(left.containsKey("a/t-0"), "the offline log dir is left as it is until a restart: " + left);
        assertFalse(left.containsKey("b/t-1"));
        assertTrue(store.operations().stream().noneMatch(op -> op.contains("/data/a")), store.operations().toString());
    }

    @Test
    void withEveryLogDirOfflineNothingIsCreatedAndNothingRetried() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A));
        PartitionReconciler reconciler = reconciler(store, List.of(A));
        store.setFull(A, true);
        ReconcileResult first = reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        assertTrue(first.complete());
        assertEquals(List.of(A), reconciler.offlineLogDirs());
        int mutations = store.mutations();

        ReconcileResult second = reconciler.reconcile(images.create("u", ID2, replicas(4)), T0 + 1);
        assertTrue(second.complete());
        assertEquals(0, second.created());
        assertEquals(mutations, store.mutations(), "an offline log dir is not written to again");
    }

    @Test
    void aRescanAfterAnotherFailureDoesNotRecreateTheOfflinePartitionsElsewhere() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B));
        PartitionReconciler reconciler = withAOffline(store);

        store.failNextOperations(1);
        ReconcileResult failed = reconciler.reconcile(images.create("v", ID3, replicas(4)), T0 + 2);
        assertTrue(failed.failed(), "an ordinary failure is still retried: " + failed);
        ReconcileResult retried = reconciler.reconcile(images.latest(), T0 + 3);
        assertTrue(retried.complete(), retried.toString());
        TreeMap<String, String> left = store.describe();
        assertEquals(metadata(ID1), left.get("a/t-0"));
        assertFalse(left.containsKey("b/t-0"), "t-0 stays with the offline log dir: " + left);
        assertFalse(left.containsKey("a/u-0") || left.containsKey("b/u-0"), "u-0 was being created in a: " + left);
        assertTrue(left.containsKey("b/v-0"), left.toString());
    }

    @Test
    void anotherDiskErrorIsRetriedAndTakesNoLogDirOffline() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B));
        PartitionReconciler reconciler = reconciler(store, List.of(A, B));
        store.setReadOnly(A, true);
        ReconcileResult result = reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        assertTrue(result.failed());
        assertEquals(List.of(), reconciler.offlineLogDirs());
    }

    @Test
    void aStrayInALogDirThatWentOfflineIsNoLongerDue() {
        InMemoryPartitionStore store = new InMemoryPartitionStore(List.of(A, B));
        PartitionReconciler reconciler = reconciler(store, List.of(A, B));
        reconciler.reconcile(images.create("t", ID1, replicas(4), replicas(4)), T0);
        reconciler.reconcile(images.delete("t"), T0);
        store.put(A, "t-0.1700000000000-stray", new InMemoryPartitionStore.Node(true, null, 0));
        PartitionReconciler restarted = reconciler(store, List.of(A, B));
        ReconcileResult scanned = restarted.reconcile(images.create("u", ID2, replicas(4)), T0);
        assertEquals(T0 + 60_000, scanned.nextDeadlineMs(), "the stray in a is due after the delay");

        store.setFull(A, true);
        store.setFull(B, true);
        ReconcileResult offline = restarted.reconcile(images.create("v", ID3, replicas(4), replicas(4)), T0 + 1);
        assertEquals(List.of(A, B), restarted.offlineLogDirs());
        assertEquals(Long.MAX_VALUE, offline.nextDeadlineMs(), "nothing is due in an offline log dir");
    }
}
