package io.metaquorum.broker.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.TopicImage;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * A pass driven by what changed does what a pass over the whole image does. Two reconcilers
 * over two identical stores follow the same random history (topics created, deleted, re-created
 * under the same name, grown; partitions reassigned onto, off and away from this broker, or
 * between other brokers; leaders and ISRs moved without a replica moving; restarts; snapshot
 * loads; passes skipped, so that changes pile up; disk errors): one is handed the newest image
 * with the changes merged since its last complete pass ({@link ImageUpdate#then}), sometimes
 * with older changes kept in (a superset), the other the same image with its changes unknown,
 * which makes it walk the whole image. After every pass their results and their directories
 * are the same.
 */
class PartitionReconcilerDeltaPropertyTest {
    private static final int BROKER = 4;
    private static final long DELAY_MS = 1_000;
    private static final List<Path> DIRS = List.of(Path.of("/d/a"), Path.of("/d/b"));
    private static final List<String> NAMES = List.of("t", "t-1", "u", "a-b");
    /** Replica sets with and without this broker (4), in different orders. */
    private static final int[][] REPLICAS = {{4}, {5}, {4, 5}, {5, 6}, {6, 4}, {4, 5, 6}, {6}, {5, 4, 6}, {6, 5}};

    sealed interface Step {
    }

    record Create(int name, int partitions, int replicaSeed) implements Step {
    }

    record Delete(int name) implements Step {
    }

    record Reassign(int name, int partition, int replicaSeed) implements Step {
    }

    record Grow(int name, int partitions, int replicaSeed) implements Step {
    }

    record MoveLeader(int name, int partition) implements Step {
    }

    /**
     * Time passes; {@code reconcile}: a pass runs (else the changes pile up); {@code keepChanges}:
     * after a complete pass the changes already applied are kept in the next update.
     */
    record Advance(long ms, boolean reconcile, boolean restart, int failures, boolean reload, boolean keepChanges)
            implements Step {
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Integer> name = Arbitraries.integers().between(0, NAMES.size() - 1);
        Arbitrary<Integer> seed = Arbitraries.integers().between(0, 1 << 10);
        Arbitrary<Integer> partition = Arbitraries.integers().between(0, 4);
        Arbitrary<Step> create = Combinators.combine(name, Arbitraries.integers().between(1, 4), seed)
                .as(Create::new);
        Arbitrary<Step> delete = name.map(Delete::new);
        Arbitrary<Step> reassign = Combinators.combine(name, partition, seed).as(Reassign::new);
        Arbitrary<Step> grow = Combinators.combine(name, Arbitraries.integers().between(1, 3), seed).as(Grow::new);
        Arbitrary<Step> moveLeader = Combinators.combine(name, partition).as(MoveLeader::new);
        Arbitrary<Step> advance = Combinators.combine(Arbitraries.longs().between(0, 2 * DELAY_MS),
                        Arbitraries.of(true, true, false), Arbitraries.of(false, false, false, false, true),
                        Arbitraries.of(0, 0, 0, 0, 1, 3), Arbitraries.of(false, false, false, false, true),
                        Arbitraries.of(false, false, true))
                .as(Advance::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(3, create), Tuple.of(2, delete), Tuple.of(3, reassign), Tuple.of(1, grow),
                        Tuple.of(2, moveLeader), Tuple.of(4, advance))
                .list().ofMinSize(1).ofMaxSize(60);
    }

    @Property(tries = 500)
    void aPassOverTheChangesEqualsAPassOverTheWholeImage(@ForAll("histories") List<Step> history) {
        InMemoryPartitionStore byChangesStore = new InMemoryPartitionStore(DIRS);
        InMemoryPartitionStore wholeStore = new InMemoryPartitionStore(DIRS);
        PartitionReconciler byChanges = reconciler(byChangesStore);
        PartitionReconciler whole = reconciler(wholeStore);
        TestImages images = new TestImages();
        ImageUpdate pending = ImageUpdate.unchanged(images.image());
        long nowMs = 1_000_000;
        long nextId = 1;
        for (Step step : history) {
            if (!(step instanceof Advance advance)) {
                ImageUpdate update = apply(step, images, nextId);
                if (update != null) {
                    pending = pending.then(update);
                    nextId += step instanceof Create ? 1 : 0;
                }
                continue;
            }
            nowMs += advance.ms();
            if (advance.restart()) {
                byChanges = reconciler(byChangesStore);
                whole = reconciler(wholeStore);
            }
            if (advance.reload()) {
                pending = images.reloaded();
            }
            if (advance.reconcile()) {
                passUntilComplete(byChanges, byChangesStore, pending, whole, wholeStore, advance.failures(), nowMs);
                pending = advance.keepChanges() ? pending : ImageUpdate.unchanged(pending.image());
            }
        }
        passUntilComplete(byChanges, byChangesStore, pending, whole, wholeStore, 0, nowMs + DELAY_MS);
    }

    private static PartitionReconciler reconciler(InMemoryPartitionStore store) {
        return new PartitionReconciler(BROKER, DIRS, DELAY_MS, store, "[node 4] ");
    }

    /** Both reconcilers, the same disk errors injected into both stores, until a pass is complete. */
    private static void passUntilComplete(PartitionReconciler byChanges, InMemoryPartitionStore byChangesStore,
                                          ImageUpdate pending, PartitionReconciler whole,
                                          InMemoryPartitionStore wholeStore, int failures, long nowMs) {
        byChangesStore.failNextOperations(failures);
        wholeStore.failNextOperations(failures);
        for (int attempt = 0; attempt < 10; attempt++) {
            ReconcileResult expected = whole.reconcile(ImageUpdate.loaded(pending.image()), nowMs);
            ReconcileResult actual = byChanges.reconcile(pending, nowMs);
            assertEquals(expected, actual, "the pass over " + pending.topics());
            assertEquals(wholeStore.describe(), byChangesStore.describe(), "after the pass over " + pending.topics());
            if (actual.complete()) {
                byChangesStore.failNextOperations(0);
                wholeStore.failNextOperations(0);
                return;
            }
        }
        throw new AssertionError("no complete pass in 10 attempts");
    }

    /** The update {@code step} makes, or null when it does not apply to the current image. */
    private static ImageUpdate apply(Step step, TestImages images, long nextId) {
        if (step instanceof Create c) {
            String name = NAMES.get(c.name());
            if (images.image().topics().topic(name) != null) {
                return null;
            }
            int[][] partitions = new int[c.partitions()][];
            for (int p = 0; p < partitions.length; p++) {
                partitions[p] = REPLICAS[(c.replicaSeed() + p) % REPLICAS.length];
            }
            return images.create(name, TestImages.id(nextId), partitions);
        }
        TopicImage topic = images.image().topics().topic(NAMES.get(nameOf(step)));
        if (topic == null) {
            return null;
        }
        if (step instanceof Delete) {
            return images.delete(topic.name());
        }
        if (step instanceof Grow g) {
            int[][] partitions = new int[g.partitions()][];
            for (int p = 0; p < partitions.length; p++) {
                partitions[p] = REPLICAS[(g.replicaSeed() + p) % REPLICAS.length];
            }
            return images.addPartitions(topic.name(), partitions);
        }
        if (step instanceof Reassign r && r.partition() < topic.partitionCount()) {
            return images.reassign(topic.name(), r.partition(), REPLICAS[r.replicaSeed() % REPLICAS.length]);
        }
        if (step instanceof MoveLeader m && m.partition() < topic.partitionCount()) {
            ImageUpdate update = images.moveLeader(topic.name(), m.partition());
            assertTrue(update.topics().topic(topic.id()) != null, "a leader move is listed as a change");
            return update;
        }
        return null;
    }

    private static int nameOf(Step step) {
        if (step instanceof Delete d) {
            return d.name();
        }
        if (step instanceof Grow g) {
            return g.name();
        }
        if (step instanceof Reassign r) {
            return r.name();
        }
        if (step instanceof MoveLeader m) {
            return m.name();
        }
        throw new IllegalArgumentException(step.toString());
    }
}
