package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.metaquorum.common.io.Directories;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;

/**
 * Any sequence of append / flush / truncate / installSnapshot / reopen leaves the RocksDB
 * log observably equal to {@link InMemoryRaftLog}, the model. A reopen is a clean close
 * and open: RocksDB keeps every write, and the reopened log counts it all as flushed, so
 * the model flushes.
 */
class RocksDbRaftLogPropertyTest {
    sealed interface Op {
    }

    record Append(int epochBump, int records, int recordBytes) implements Op {
    }

    record Flush() implements Op {
    }

    record Truncate(int permille) implements Op {
    }

    record InstallSnapshot(SnapshotKind kind, int pick) implements Op {
    }

    record Reopen() implements Op {
    }

    enum SnapshotKind { MATCHING, MID_BATCH, MISMATCHED_EPOCH, BEYOND_END }

    @Property(tries = 100, shrinking = ShrinkingMode.BOUNDED)
    void rocksDbLogBehavesLikeTheModel(@ForAll("operations") List<Op> operations,
                                       @ForAll("tailCacheSizes") long tailCacheBytesMax) throws Exception {
        Path directory = Files.createTempDirectory("rocksdb-log-property");
        InMemoryRaftLog model = new InMemoryRaftLog();
        MetadataLogStore store = MetadataLogStore.open(directory, tailCacheBytesMax);
        try {
            for (Op operation : operations) {
                if (operation instanceof Reopen) {
                    store.close();
                    store = MetadataLogStore.open(directory, tailCacheBytesMax);
                    model.flush();
                } else {
                    apply(operation, model, store.raftLog());
                }
                assertSameState(model, store.raftLog(), operation);
            }
        } finally {
            store.close();
            Directories.deleteRecursively(directory);
        }
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Integer> epochBump = Arbitraries.frequency(Tuple.of(6, 0), Tuple.of(2, 1), Tuple.of(1, 2));
        Arbitrary<Op> append = Combinators.combine(epochBump,
                Arbitraries.integers().between(1, 5), Arbitraries.integers().between(1, 120)).as(Append::new);
        Arbitrary<Op> truncate = Arbitraries.integers().between(0, 1000).map(Truncate::new);
        Arbitrary<Op> snapshot = Combinators.combine(Arbitraries.of(SnapshotKind.class),
                Arbitraries.integers().between(0, 1000)).as(InstallSnapshot::new);
        Arbitrary<Op> flush = Arbitraries.just(new Flush());
        Arbitrary<Op> reopen = Arbitraries.just(new Reopen());
        return Arbitraries.frequencyOf(Tuple.of(12, append), Tuple.of(3, flush), Tuple.of(2, truncate),
                Tuple.of(2, snapshot), Tuple.of(1, reopen)).list().ofMinSize(1).ofMaxSize(40);
    }

    @Provide
    Arbitrary<Long> tailCacheSizes() {
        return Arbitraries.of(0L, 700L, MetadataLogStore.TAIL_CACHE_BYTES_MAX_DEFAULT);
    }

    private static void apply(Op operation, RaftLog model, RaftLog log) {
        if (operation instanceof Append append) {
            RecordBatch batch = TestBatches.batch(model.endOffset(), model.lastEpoch() + append.epochBump(),
                    append.records(), append.recordBytes());
            model.append(batch);
            log.append(batch);
        } else if (operation instanceof Flush) {
            model.flush();
            log.flush();
        } else if (operation instanceof Truncate truncate) {
            long offset = model.startOffset() + (model.endOffset() - model.startOffset()) * truncate.permille() / 1000;
            model.truncateTo(offset);
            log.truncateTo(offset);
        } else if (operation instanceof InstallSnapshot install) {
            OffsetAndEpoch id = snapshotId(install, model);
            byte[] content = SnapshotCodec.encode(id, install.pick(), List.of(ByteString.copyFromUtf8("state-" + id)), 1);
            model.installSnapshot(id, content);
            log.installSnapshot(id, content);
        } else {
            throw new IllegalStateException("not applied here: " + operation);
        }
    }

    /** A snapshot id of the requested kind that the model accepts (not older than its start). */
    private static OffsetAndEpoch snapshotId(InstallSnapshot install, RaftLog model) {
        List<RecordBatch> batches = model.read(model.startOffset(), Integer.MAX_VALUE);
        int pick = install.pick();
        List<RecordBatch> splittable = batches.stream().filter(batch -> batch.getRecordCount() > 1).toList();
        return switch (install.kind()) {
            case MATCHING -> {
                // Boundaries after the start: the end of each batch, with that batch's epoch.
                if (batches.isEmpty() || pick % (batches.size() + 1) == batches.size()) {
                    yield model.latestSnapshot().orElse(new OffsetAndEpoch(model.startOffset(), 0));
                }
                RecordBatch batch = batches.get(pick % (batches.size() + 1));
                yield new OffsetAndEpoch(RecordBatches.endOffset(batch), batch.getEpoch());
            }
            case MID_BATCH -> {
                if (splittable.isEmpty()) {
                    yield new OffsetAndEpoch(model.endOffset() + 1, model.lastEpoch());
                }
                RecordBatch batch = splittable.get(pick % splittable.size());
                yield new OffsetAndEpoch(batch.getBaseOffset() + 1 + pick % (batch.getRecordCount() - 1),
                        batch.getEpoch());
            }
            case MISMATCHED_EPOCH -> new OffsetAndEpoch(
                    batches.isEmpty() ? model.startOffset() : RecordBatches.endOffset(batches.get(pick % batches.size())),
                    model.lastEpoch() + 1);
            case BEYOND_END -> new OffsetAndEpoch(model.endOffset() + 1 + pick % 3, model.lastEpoch() + pick % 2);
        };
    }

    private static void assertSameState(RaftLog model, RaftLog log, Op after) {
        String context = "after " + after;
        assertEquals(model.startOffset(), log.startOffset(), context);
        assertEquals(model.endOffset(), log.endOffset(), context);
        assertEquals(model.flushedEndOffset(), log.flushedEndOffset(), context);
        assertEquals(model.hasUnflushed(), log.hasUnflushed(), context);
        assertEquals(model.lastEpoch(), log.lastEpoch(), context);
        assertEquals(model.latestSnapshot(), log.latestSnapshot(), context);
        for (int epoch = -1; epoch <= model.lastEpoch() + 1; epoch++) {
            assertEquals(model.endOffsetForEpoch(epoch), log.endOffsetForEpoch(epoch), context + ", epoch " + epoch);
        }
        assertEquals(model.read(model.startOffset(), Integer.MAX_VALUE), log.read(log.startOffset(), Integer.MAX_VALUE),
                context);
        List<Long> probes = new ArrayList<>(List.of(model.startOffset(), model.endOffset(),
                (model.startOffset() + model.endOffset()) / 2, Math.max(model.startOffset(), model.endOffset() - 1)));
        for (long offset : probes) {
            for (int maxBytes : new int[] {1, 300}) {
                assertEquals(model.read(offset, maxBytes), log.read(offset, maxBytes),
                        context + ", read(" + offset + ", " + maxBytes + ")");
            }
        }
        if (model.latestSnapshot().isPresent()) {
            OffsetAndEpoch id = model.latestSnapshot().get();
            assertEquals(model.snapshotSize(id), log.snapshotSize(id), context);
            assertArrayEquals(model.readSnapshot(id, 0, Integer.MAX_VALUE), log.readSnapshot(id, 0, Integer.MAX_VALUE),
                    context);
        }
    }
}
