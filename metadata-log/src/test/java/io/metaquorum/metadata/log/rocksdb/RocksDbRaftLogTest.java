package io.metaquorum.metadata.log.rocksdb;

import static io.metaquorum.metadata.log.rocksdb.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RocksDbRaftLogTest {
    @TempDir
    Path directory;
    private MetadataLogStore store;

    private RaftLog open(long tailCacheBytesMax) {
        if (store != null) {
            store.close();
        }
        store = MetadataLogStore.open(directory, tailCacheBytesMax);
        return store.raftLog();
    }

    private RaftLog open() {
        return open(MetadataLogStore.TAIL_CACHE_BYTES_MAX_DEFAULT);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    private static void appendAll(RaftLog log, int[][] sizesAndEpochs) {
        for (int[] sizeAndEpoch : sizesAndEpochs) {
            log.append(batch(log.endOffset(), sizeAndEpoch[1], sizeAndEpoch[0]));
        }
    }

    private static List<Long> baseOffsets(List<RecordBatch> batches) {
        return batches.stream().map(RecordBatch::getBaseOffset).toList();
    }

    @Test
    void unflushedAppendsAreReadFromRocksDbWhenNotCachedAndStayUnflushed() {
        RaftLog log = open(0);
        appendAll(log, new int[][] {{3, 1}, {2, 1}});
        assertEquals(List.of(0L, 3L), baseOffsets(log.read(0, Integer.MAX_VALUE)));
        assertTrue(log.hasUnflushed());
        assertEquals(0, log.flushedEndOffset());
    }

    @Test
    void appendsPastThePendingBoundGoToRocksDbBeforeTheFlush() {
        RaftLog log = open();
        int recordsPerBatch = 16;
        for (int i = 0; i < 5; i++) {
            // Just over 1 MiB each: the fourth takes the pending write past its 4 MiB bound.
            log.append(batch(log.endOffset(), 1, recordsPerBatch, 64 << 10));
        }
        try (MetadataLogStore reader = MetadataLogStore.openReadOnly(directory)) {
            assertEquals(4 * recordsPerBatch, reader.raftLog().endOffset(), "written out: the first four batches only");
        }
        assertEquals(0, log.flushedEndOffset());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1 << 20})
    void appendsReadsAndFlushesWithOrWithoutTheTailCache(long tailCacheBytesMax) {
        RaftLog log = open(tailCacheBytesMax);
        appendAll(log, new int[][] {{3, 1}, {3, 1}, {3, 2}});
        assertEquals(9, log.endOffset());
        assertTrue(log.hasUnflushed());
        assertEquals(0, log.flushedEndOffset());
        log.flush();
        assertFalse(log.hasUnflushed());
        assertEquals(9, log.flushedEndOffset());
        assertEquals(List.of(3L, 6L), baseOffsets(log.read(4, Integer.MAX_VALUE)));
        assertEquals(List.of(0L), baseOffsets(log.read(0, 1)));
        assertEquals(List.of(), log.read(9, 100));
        assertEquals(batch(3, 1, 3), log.read(5, 1).get(0));
        assertThrows(IllegalArgumentException.class, () -> log.read(10, 100));
        assertThrows(IllegalArgumentException.class, () -> log.append(batch(10, 2, 1)));
        assertThrows(IllegalArgumentException.class, () -> log.append(batch(9, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> log.append(batch(9, 2, 1).toBuilder().setCrc(7).build()));
    }

    @Test
    void reopenKeepsEverythingAndRebuildsTheEpochIndex() {
        RaftLog log = open();
        appendAll(log, new int[][] {{2, 1}, {2, 1}, {3, 3}, {1, 5}});
        log.flush();
        appendAll(log, new int[][] {{2, 5}});
        RaftLog reopened = open();
        assertEquals(10, reopened.endOffset());
        assertEquals(10, reopened.flushedEndOffset());
        assertEquals(5, reopened.lastEpoch());
        assertEquals(new OffsetAndEpoch(4, 1), reopened.endOffsetForEpoch(2));
        assertEquals(new OffsetAndEpoch(7, 3), reopened.endOffsetForEpoch(4));
        assertEquals(new OffsetAndEpoch(10, 5), reopened.endOffsetForEpoch(9));
        assertEquals(new OffsetAndEpoch(0, 0), reopened.endOffsetForEpoch(0));
        assertEquals(List.of(0L, 2L, 4L, 7L, 8L), baseOffsets(reopened.read(0, Integer.MAX_VALUE)));
    }

    @Test
    void truncationCutsAStraddlingBatchDurably() {
        RaftLog log = open(0);
        appendAll(log, new int[][] {{3, 1}, {3, 2}, {3, 3}});
        log.flush();
        log.truncateTo(4);
        assertEquals(4, log.endOffset());
        assertEquals(4, log.flushedEndOffset());
        assertEquals(2, log.lastEpoch());
        assertEquals(new OffsetAndEpoch(4, 2), log.endOffsetForEpoch(3));
        RaftLog reopened = open();
        RecordBatch cut = reopened.read(3, 100).get(0);
        assertEquals(1, cut.getRecordCount());
        assertTrue(RecordBatches.isValid(cut));
        assertEquals(4, reopened.endOffset());
        assertEquals(new OffsetAndEpoch(4, 2), reopened.endOffsetForEpoch(3));
        reopened.append(batch(4, 4, 2));
        assertEquals(List.of(0L, 3L, 4L), baseOffsets(reopened.read(0, Integer.MAX_VALUE)));
        assertThrows(IllegalArgumentException.class, () -> reopened.truncateTo(-1));
    }

    @Test
    void matchingSnapshotMovesTheStartAndSurvivesReopen() throws Exception {
        RaftLog log = open();
        appendAll(log, new int[][] {{2, 1}, {2, 2}, {2, 2}});
        OffsetAndEpoch first = new OffsetAndEpoch(2, 1);
        log.installSnapshot(first, new byte[] {9});
        OffsetAndEpoch id = new OffsetAndEpoch(4, 2);
        log.installSnapshot(id, new byte[] {1, 2, 3, 4});
        assertEquals(List.of(SnapshotFiles.fileName(id)), snapshotFileNames());
        assertEquals("00000000000000000004-0000000002.checkpoint", SnapshotFiles.fileName(id));
        assertEquals(4, log.startOffset());
        assertEquals(6, log.endOffset());
        assertEquals(new OffsetAndEpoch(6, 2), log.endOffsetForEpoch(2));
        assertThrows(IllegalArgumentException.class, () -> log.snapshotSize(first));
        RaftLog reopened = open();
        assertEquals(Optional.of(id), reopened.latestSnapshot());
        assertEquals(4, reopened.startOffset());
        assertEquals(6, reopened.endOffset());
        assertEquals(4, reopened.snapshotSize(id));
        assertArrayEquals(new byte[] {2, 3}, reopened.readSnapshot(id, 1, 2));
        assertArrayEquals(new byte[] {4}, reopened.readSnapshot(id, 3, 100));
        assertEquals(List.of(4L), baseOffsets(reopened.read(4, 100)));
        assertThrows(IllegalArgumentException.class, () -> reopened.read(2, 100));
    }

    @Test
    void snapshotThatDoesNotMatchResetsTheLog() {
        RaftLog log = open();
        appendAll(log, new int[][] {{4, 1}});
        log.installSnapshot(new OffsetAndEpoch(2, 1), new byte[0]);
        assertEquals(2, log.startOffset());
        assertEquals(2, log.endOffset());
        assertEquals(1, log.lastEpoch());
        log.append(batch(2, 3, 1));
        RaftLog reopened = open();
        assertEquals(3, reopened.endOffset());
        assertEquals(new OffsetAndEpoch(2, 1), reopened.endOffsetForEpoch(2));
        assertEquals(new OffsetAndEpoch(3, 3), reopened.endOffsetForEpoch(3));
        reopened.installSnapshot(new OffsetAndEpoch(50, 4), new byte[] {5});
        assertEquals(50, reopened.endOffset());
        assertEquals(4, open().lastEpoch());
    }

    @Test
    void leftoverPartialSnapshotIsDeletedOnOpen() throws Exception {
        open().close();
        Path partial = directory.resolve("snapshots").resolve("00000000000000000009-0000000001.checkpoint.part");
        Files.write(partial, new byte[] {1});
        RaftLog log = open();
        assertFalse(Files.exists(partial));
        assertEquals(Optional.empty(), log.latestSnapshot());
    }

    @Test
    void snapshotFileWrittenBeforeACrashIsInstalledOnOpen() throws Exception {
        RaftLog log = open();
        appendAll(log, new int[][] {{2, 1}, {2, 2}});
        log.installSnapshot(new OffsetAndEpoch(2, 1), new byte[] {1});
        log.close();
        // What an installation leaves when it crashes after the rename, before the meta write.
        Files.write(directory.resolve("snapshots").resolve(SnapshotFiles.fileName(new OffsetAndEpoch(4, 2))),
                new byte[] {7, 7});
        RaftLog reopened = open();
        assertEquals(Optional.of(new OffsetAndEpoch(4, 2)), reopened.latestSnapshot());
        assertEquals(4, reopened.startOffset());
        assertEquals(4, reopened.endOffset());
        assertEquals(List.of(SnapshotFiles.fileName(new OffsetAndEpoch(4, 2))), snapshotFileNames());
    }

    @Test
    void missingRecordedSnapshotStopsTheOpen() throws Exception {
        RaftLog log = open();
        appendAll(log, new int[][] {{2, 1}});
        log.installSnapshot(new OffsetAndEpoch(2, 1), new byte[] {1});
        log.close();
        Files.delete(directory.resolve("snapshots").resolve(SnapshotFiles.fileName(new OffsetAndEpoch(2, 1))));
        assertThrows(StorageException.class, this::open);
    }

    @Test
    void callsAfterCloseFailCleanly() {
        RaftLog log = open();
        appendAll(log, new int[][] {{1, 1}});
        store.close();
        assertThrows(IllegalStateException.class, () -> log.append(batch(1, 1, 1)));
        assertThrows(IllegalStateException.class, log::flush);
        store.close();
    }

    private List<String> snapshotFileNames() throws Exception {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
