package io.metaquorum.raft.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryRaftLogTest {
    private final InMemoryRaftLog log = new InMemoryRaftLog();

    static RecordBatch batch(long baseOffset, int epoch, int records) {
        List<ByteString> values = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            values.add(ByteString.copyFromUtf8("r" + (baseOffset + i) + "e" + epoch));
        }
        return RecordBatches.build(baseOffset, epoch, 1000 + baseOffset, false, values);
    }

    /** Appends batches of the given sizes and epochs at the end of the log. */
    private void appendAll(int[][] sizesAndEpochs) {
        for (int[] sizeAndEpoch : sizesAndEpochs) {
            log.append(batch(log.endOffset(), sizeAndEpoch[1], sizeAndEpoch[0]));
        }
    }

    @Test
    void emptyLogStartsAtZero() {
        assertEquals(0, log.startOffset());
        assertEquals(0, log.endOffset());
        assertEquals(0, log.lastEpoch());
        assertFalse(log.hasUnflushed());
        assertEquals(List.of(), log.read(0, 100));
        assertEquals(new OffsetAndEpoch(0, 0), log.endOffsetForEpoch(5));
        assertEquals(Optional.empty(), log.latestSnapshot());
    }

    @Test
    void appendAdvancesEndButNotFlushedUntilFlush() {
        appendAll(new int[][] {{3, 1}, {2, 1}});
        assertEquals(5, log.endOffset());
        assertEquals(0, log.flushedEndOffset());
        assertTrue(log.hasUnflushed());
        log.flush();
        assertEquals(5, log.flushedEndOffset());
        assertFalse(log.hasUnflushed());
        assertEquals(1, log.lastEpoch());
    }

    @Test
    void appendRejectsBadBatches() {
        appendAll(new int[][] {{3, 2}});
        assertThrows(IllegalArgumentException.class, () -> log.append(batch(4, 2, 1)));
        assertThrows(IllegalArgumentException.class, () -> log.append(batch(3, 1, 1)));
        RecordBatch badCrc = batch(3, 2, 1).toBuilder().setCrc(42).build();
        assertThrows(IllegalArgumentException.class, () -> log.append(badCrc));
        RecordBatch empty = RecordBatch.newBuilder().setBaseOffset(3).setEpoch(2).build();
        assertThrows(IllegalArgumentException.class, () -> log.append(empty));
        assertEquals(3, log.endOffset());
    }

    @Test
    void readReturnsWholeBatchesFromTheOneHoldingTheOffset() {
        appendAll(new int[][] {{3, 1}, {3, 1}, {3, 2}});
        List<RecordBatch> read = log.read(4, Integer.MAX_VALUE);
        assertEquals(List.of(3L, 6L), read.stream().map(RecordBatch::getBaseOffset).toList());
        assertEquals(List.of(), log.read(9, 10));
        assertThrows(IllegalArgumentException.class, () -> log.read(10, 10));
    }

    @Test
    void readStopsAtMaxBytesButReturnsAtLeastOneBatch() {
        appendAll(new int[][] {{3, 1}, {3, 1}, {3, 1}});
        int one = RecordBatches.sizeInBytes(log.read(0, 1).get(0));
        assertEquals(1, log.read(0, 1).size());
        assertEquals(2, log.read(0, one + RecordBatches.sizeInBytes(log.read(3, 1).get(0))).size());
    }

    @Test
    void truncateCutsAStraddlingBatchAndDropsLaterEpochs() {
        appendAll(new int[][] {{3, 1}, {3, 2}, {3, 3}});
        log.flush();
        log.truncateTo(4);
        assertEquals(4, log.endOffset());
        assertEquals(4, log.flushedEndOffset());
        assertEquals(2, log.lastEpoch());
        RecordBatch cut = log.read(3, 100).get(0);
        assertEquals(1, cut.getRecordCount());
        assertTrue(RecordBatches.isValid(cut));
        assertEquals(new OffsetAndEpoch(4, 2), log.endOffsetForEpoch(3));
        log.truncateTo(10);
        assertEquals(4, log.endOffset());
    }

    @Test
    void truncateToStartEmptiesTheLog() {
        appendAll(new int[][] {{3, 1}});
        log.truncateTo(0);
        assertEquals(0, log.endOffset());
        assertEquals(0, log.lastEpoch());
        assertEquals(new OffsetAndEpoch(0, 0), log.endOffsetForEpoch(1));
    }

    @Test
    void endOffsetForEpochAnswersTheLargestKnownEpochAndItsEnd() {
        appendAll(new int[][] {{2, 1}, {2, 1}, {3, 3}, {1, 5}});
        assertEquals(new OffsetAndEpoch(4, 1), log.endOffsetForEpoch(1));
        assertEquals(new OffsetAndEpoch(4, 1), log.endOffsetForEpoch(2));
        assertEquals(new OffsetAndEpoch(7, 3), log.endOffsetForEpoch(4));
        assertEquals(new OffsetAndEpoch(8, 5), log.endOffsetForEpoch(9));
        assertEquals(new OffsetAndEpoch(0, 0), log.endOffsetForEpoch(0));
    }

    @Test
    void matchingSnapshotMovesTheStartAndKeepsLaterBatches() {
        appendAll(new int[][] {{2, 1}, {2, 2}, {2, 2}});
        log.installSnapshot(new OffsetAndEpoch(4, 2), new byte[] {1, 2, 3});
        assertEquals(4, log.startOffset());
        assertEquals(6, log.endOffset());
        assertEquals(4, log.flushedEndOffset());
        assertEquals(Optional.of(new OffsetAndEpoch(4, 2)), log.latestSnapshot());
        assertEquals(List.of(4L), log.read(4, 100).stream().map(RecordBatch::getBaseOffset).toList());
        assertEquals(new OffsetAndEpoch(6, 2), log.endOffsetForEpoch(2));
        assertEquals(new OffsetAndEpoch(4, 2), log.endOffsetForEpoch(1));
        assertEquals(3, log.snapshotSize(new OffsetAndEpoch(4, 2)));
        assertArrayEquals(new byte[] {2, 3}, log.readSnapshot(new OffsetAndEpoch(4, 2), 1, 10));
        assertThrows(IllegalArgumentException.class, () -> log.truncateTo(3));
        assertThrows(IllegalArgumentException.class, () -> log.read(3, 10));
    }

    @Test
    void snapshotThatDoesNotMatchResetsTheLogAtItsOffset() {
        appendAll(new int[][] {{2, 1}, {2, 2}});
        log.installSnapshot(new OffsetAndEpoch(2, 3), new byte[0]);
        assertResetAt(2, 3);
    }

    @Test
    void snapshotInsideABatchResetsTheLog() {
        appendAll(new int[][] {{4, 1}});
        log.installSnapshot(new OffsetAndEpoch(2, 1), new byte[0]);
        assertResetAt(2, 1);
    }

    @Test
    void snapshotBeyondTheEndResetsTheLog() {
        appendAll(new int[][] {{2, 1}});
        log.installSnapshot(new OffsetAndEpoch(10, 4), new byte[0]);
        assertResetAt(10, 4);
        log.append(batch(10, 4, 1));
        assertEquals(new OffsetAndEpoch(11, 4), log.endOffsetForEpoch(4));
        assertEquals(new OffsetAndEpoch(10, 4), log.endOffsetForEpoch(3));
    }

    @Test
    void olderSnapshotsAreRefusedAndReplaced() {
        appendAll(new int[][] {{2, 1}, {2, 2}});
        OffsetAndEpoch first = new OffsetAndEpoch(2, 1);
        log.installSnapshot(first, new byte[] {1});
        assertThrows(IllegalArgumentException.class, () -> log.installSnapshot(new OffsetAndEpoch(1, 1), new byte[0]));
        log.installSnapshot(new OffsetAndEpoch(4, 2), new byte[] {2});
        assertThrows(IllegalArgumentException.class, () -> log.snapshotSize(first));
        assertEquals(4, log.endOffset());
        assertEquals(2, log.lastEpoch());
    }

    private void assertResetAt(long offset, int epoch) {
        assertEquals(offset, log.startOffset());
        assertEquals(offset, log.endOffset());
        assertEquals(offset, log.flushedEndOffset());
        assertEquals(epoch, log.lastEpoch());
        assertEquals(List.of(), log.read(offset, 100));
        assertEquals(new OffsetAndEpoch(offset, epoch), log.endOffsetForEpoch(epoch + 1));
    }
}
