package io.metaquorum.broker.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * For random histories of topics created, deleted, re-created under the same name, grown and
 * reassigned, with restarts (images the broker never saw while down), snapshot reloads,
 * injected disk errors and time passing: after every complete pass the partition directories
 * are exactly what the image assigns to this broker, everything else is a stray not yet due,
 * and once the delay has passed no stray is left. Each pass is handed the newest image with
 * every change since the last pass ({@link TestImages#take}), as the schedule hands it.
 */
class PartitionReconcilerPropertyTest {
    private static final int BROKER = 4;
    private static final long DELAY_MS = 1_000;
    private static final List<Path> DIRS = List.of(Path.of("/d/a"), Path.of("/d/b"), Path.of("/d/c"));
    /** Names that are hard to tell apart by their directories: t-1 is also partition 1 of t. */
    private static final List<String> NAMES = List.of("t", "t-1", "t.x_y", "a-b-c");

    sealed interface Step {
    }

    record Create(int name, int partitions, int replicaSeed) implements Step {
    }

    record Delete(int name) implements Step {
    }

    record Reassign(int name, int partition, int replicaSeed) implements Step {
    }

    record Grow(int name, int replicaSeed) implements Step {
    }

    /** {@code reconcile}: whether the running broker sees this image; false means it is down for it. */
    record Advance(long ms, boolean reconcile, boolean restart, int failures, boolean reload) implements Step {
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Integer> name = Arbitraries.integers().between(0, NAMES.size() - 1);
        Arbitrary<Integer> seed = Arbitraries.integers().between(0, 1 << 10);
        Arbitrary<Step> create = Combinators.combine(name, Arbitraries.integers().between(1, 4), seed)
                .as(Create::new);
        Arbitrary<Step> delete = name.map(Delete::new);
        Arbitrary<Step> reassign = Combinators.combine(name, Arbitraries.integers().between(0, 3), seed)
                .as(Reassign::new);
        Arbitrary<Step> grow = Combinators.combine(name, seed).as(Grow::new);
        Arbitrary<Step> advance = Combinators.combine(Arbitraries.longs().between(0, 2 * DELAY_MS),
                        Arbitraries.of(true, true, false), Arbitraries.of(false, false, false, true),
                        Arbitraries.of(0, 0, 0, 1, 3), Arbitraries.of(false, false, false, true))
                .as(Advance::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(3, create), Tuple.of(2, delete),
                        Tuple.of(2, reassign), Tuple.of(1, grow),
                        Tuple.of(4, advance))
                .list().ofMinSize(1).ofMaxSize(40);
    }

    /** A non-empty set of brokers out of 4, 5, 6, in an order picked by {@code seed}. */
    private static int[] replicas(int seed) {
        int[][] choices = {{4}, {5}, {4, 5}, {5, 6}, {6, 4}, {4, 5, 6}, {6}, {5, 4, 6}};
        return choices[seed % choices.length];
    }

    @Property(tries = 300)
    void theDirectoriesAreExactlyWhatTheImageAssigns(@ForAll("histories") List<Step> history) {
        InMemoryPartitionStore store = new InMemoryPartitionStore(DIRS);
        TestImages images = new TestImages();
        PartitionReconciler reconciler = new PartitionReconciler(BROKER, DIRS, DELAY_MS, store, "[node 4] ");
        long nowMs = 1_000_000;
        long nextId = 1;
        for (Step step : history) {
            if (step instanceof Advance advance) {
                nowMs += advance.ms();
                if (advance.restart()) {
                    reconciler = new PartitionReconciler(BROKER, DIRS, DELAY_MS, store, "[node 4] ");
                }
                if (advance.reload()) {
                    images.reloaded();
                }
                if (advance.reconcile()) {
                    store.failNextOperations(advance.failures());
                    reconcileUntilComplete(reconciler, images.take(), nowMs);
                    store.failNextOperations(0);
                    check(store, images.image(), nowMs);
                }
            } else {
                nextId = apply(step, images, nextId);
            }
        }
        reconcileUntilComplete(reconciler, images.take(), nowMs);
        check(store, images.image(), nowMs);
        ReconcileResult later = reconcileUntilComplete(reconciler, images.take(), nowMs + DELAY_MS);
        assertEquals(Long.MAX_VALUE, later.nextDeadlineMs());
        check(store, images.image(), nowMs + DELAY_MS);
        assertEquals(expectedDirs(images.image()).size(), store.describe().size(), "no stray left after the delay");
    }

    private static ReconcileResult reconcileUntilComplete(PartitionReconciler reconciler, ImageUpdate update,
                                                          long nowMs) {
        for (int attempt = 0; attempt < 10; attempt++) {
            ReconcileResult result = reconciler.reconcile(update, nowMs);
            if (result.complete()) {
                return result;
            }
        }
        throw new AssertionError("no complete pass in 10 attempts");
    }

    private static long apply(Step step, TestImages images, long nextId) {
        String name;
        if (step instanceof Create c) {
            name = NAMES.get(c.name());
            if (images.image().topics().topic(name) == null) {
                int[][] partitions = new int[c.partitions()][];
                for (int p = 0; p < partitions.length; p++) {
                    partitions[p] = replicas(c.replicaSeed() + p);
                }
                images.create(name, TestImages.id(nextId), partitions);
                return nextId + 1;
            }
        } else if (step instanceof Delete d) {
            name = NAMES.get(d.name());
            if (images.image().topics().topic(name) != null) {
                images.delete(name);
            }
        } else if (step instanceof Reassign r) {
            name = NAMES.get(r.name());
            TopicImage topic = images.image().topics().topic(name);
            if (topic != null && r.partition() < topic.partitionCount()) {
                images.reassign(name, r.partition(), replicas(r.replicaSeed()));
            }
        } else if (step instanceof Grow g) {
            name = NAMES.get(g.name());
            if (images.image().topics().topic(name) != null) {
                images.addPartitions(name, replicas(g.replicaSeed()));
            }
        }
        return nextId;
    }

    /** "dirName" to the metadata text for every partition the image assigns to this broker. */
    private static TreeMap<String, String> expectedDirs(MetadataImage image) {
        TreeMap<String, String> expected = new TreeMap<>();
        for (TopicImage topic : image.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionRegistration partition = topic.partition(p);
                if (partition.hasReplica(BROKER)) {
                    expected.put(topic.name() + "-" + p, "version: 0\ntopic_id: " + TestImages.base64(topic.id()));
                }
            }
        }
        return expected;
    }

    private static void check(InMemoryPartitionStore store, MetadataImage image, long nowMs) {
        TreeMap<String, String> live = new TreeMap<>();
        List<String> strays = new ArrayList<>();
        for (Map.Entry<String, String> entry : store.describe().entrySet()) {
            String name = entry.getKey().substring(entry.getKey().indexOf('/') + 1);
            PartitionDirName parsed = PartitionDirName.parse(name);
            if (parsed instanceof PartitionDirName.Stray stray) {
                assertTrue(stray.stagedAtMs() + DELAY_MS > nowMs, "a stray past its delay: " + entry.getKey());
                strays.add(name);
            } else {
                String previous = live.put(name, entry.getValue());
                assertEquals(null, previous, "two directories for " + name + ": " + store.describe());
            }
        }
        assertEquals(expectedDirs(image), live, "strays: " + strays);
    }
}
