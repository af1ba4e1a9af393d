package io.metaquorum.raft.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LogIndexTest {
    private final LogIndex index = LogIndex.empty();

    /** Epoch 1 at [0, 4), epoch 3 at [4, 10) in two batches, epoch 4 at [10, 12). */
    private void appendThreeEpochs() {
        assertTrue(index.append(InMemoryRaftLogTest.batch(0, 1, 4)));
        assertTrue(index.append(InMemoryRaftLogTest.batch(4, 3, 3)));
        assertFalse(index.append(InMemoryRaftLogTest.batch(7, 3, 3)), "epoch 3 already has its start");
        assertTrue(index.append(InMemoryRaftLogTest.batch(10, 4, 2)));
    }

    @Test
    void anEmptyIndexAnswersZeroes() {
        assertEquals(0, index.startOffset());
        assertEquals(0, index.endOffset());
        assertEquals(0, index.lastEpoch());
        assertEquals(new OffsetAndEpoch(0, 0), index.endOffsetForEpoch(7));
        assertFalse(index.truncates(0));
    }

    @Test
    void appendsRecordEachEpochsFirstOffsetAndMoveTheEnd() {
        appendThreeEpochs();
        assertEquals(Map.of(1, 0L, 3, 4L, 4, 10L), index.epochStarts());
        assertEquals(12, index.endOffset());
        assertEquals(4, index.lastEpoch());
        assertEquals(0, index.flushedEndOffset());
        assertTrue(index.hasUnflushed());
        index.flush();
        assertEquals(12, index.flushedEndOffset());
        assertThrows(IllegalArgumentException.class, () -> index.append(InMemoryRaftLogTest.batch(12, 2, 1)),
                "an epoch below the last");
        assertThrows(IllegalArgumentException.class, () -> index.append(InMemoryRaftLogTest.batch(13, 4, 1)),
                "a gap");
    }

    @Test
    void endOffsetForEpochAnswersTheLargestKnownEpochAndWhereItEnds() {
        appendThreeEpochs();
        assertEquals(new OffsetAndEpoch(4, 1), index.endOffsetForEpoch(1));
        assertEquals(new OffsetAndEpoch(4, 1), index.endOffsetForEpoch(2), "epoch 2 is unknown: epoch 1 ends at 4");
        assertEquals(new OffsetAndEpoch(10, 3), index.endOffsetForEpoch(3));
        assertEquals(new OffsetAndEpoch(12, 4), index.endOffsetForEpoch(9));
        assertEquals(new OffsetAndEpoch(0, 0), index.endOffsetForEpoch(0));
    }

    @Test
    void epochAtFindsTheEpochHoldingAnOffset() {
        appendThreeEpochs();
        assertEquals(1, index.epochAt(0));
        assertEquals(1, index.epochAt(3));
        assertEquals(3, index.epochAt(4));
        assertEquals(3, index.epochAt(9));
        assertEquals(4, index.epochAt(11));
    }

    @Test
    void truncationDropsTheEpochsStartingAtOrAboveTheOffsetAndPullsTheDurableEndDown() {
        appendThreeEpochs();
        index.flush();
        assertEquals(List.of(3, 4), index.epochsFrom(4));
        assertEquals(List.of(4), index.epochsFrom(5));
        index.truncateTo(5);
        assertEquals(Map.of(1, 0L, 3, 4L), index.epochStarts(), "epoch 3 still holds offset 4");
        assertEquals(5, index.endOffset());
        assertEquals(5, index.flushedEndOffset());
        assertEquals(3, index.lastEpoch());
        assertEquals(new OffsetAndEpoch(5, 3), index.endOffsetForEpoch(4));
        assertFalse(index.truncates(5), "nothing at or above the end");
        index.truncateTo(0);
        assertTrue(index.epochStarts().isEmpty());
        assertEquals(0, index.lastEpoch());
    }

    @Test
    void aMatchingSnapshotKeepsTheLaterEpochsAndRestartsTheOneItCuts() {
        appendThreeEpochs();
        LogIndex.StartMove move = index.planStartMove(new OffsetAndEpoch(7, 3), true);
        assertTrue(move.keepsBatches());
        assertEquals(List.of(1, 3), move.droppedEpochs());
        assertEquals(OptionalInt.of(3), move.continuingEpoch());
        index.moveStart(move);
        assertEquals(7, index.startOffset());
        assertEquals(12, index.endOffset());
        assertEquals(Map.of(3, 7L, 4, 10L), index.epochStarts());
        assertEquals(7, index.flushedEndOffset(), "the snapshot is durable, so the log is up to it");
        assertEquals(new OffsetAndEpoch(7, 3), index.endOffsetForEpoch(2), "below every epoch: the snapshot");
        assertThrows(IllegalArgumentException.class, () -> index.checkSnapshotNotOlder(new OffsetAndEpoch(6, 3)));
        assertThrows(IllegalArgumentException.class, () -> index.truncateTo(6));
    }

    @Test
    void aSnapshotAtTheEndKeepsNothingButMatches() {
        appendThreeEpochs();
        LogIndex.StartMove move = index.planStartMove(new OffsetAndEpoch(12, 4), true);
        assertTrue(move.keepsBatches());
        assertEquals(OptionalInt.empty(), move.continuingEpoch());
        index.moveStart(move);
        assertEquals(12, index.startOffset());
        assertEquals(4, index.lastEpoch(), "the snapshot's epoch");
        assertTrue(index.epochStarts().isEmpty());
    }

    @Test
    void aSnapshotThatDoesNotMatchResetsTheLogAtItsOffset() {
        appendThreeEpochs();
        assertResets(new OffsetAndEpoch(7, 4), true, "the record below has epoch 3");
        assertResets(new OffsetAndEpoch(5, 3), false, "not at a batch boundary");
        assertResets(new OffsetAndEpoch(20, 4), false, "beyond the end");
        LogIndex.StartMove move = index.planStartMove(new OffsetAndEpoch(7, 4), true);
        index.moveStart(move);
        assertEquals(7, index.startOffset());
        assertEquals(7, index.endOffset());
        assertEquals(7, index.flushedEndOffset());
        assertEquals(4, index.lastEpoch());
        assertTrue(index.epochStarts().isEmpty());
    }

    @Test
    void theCurrentLogStartMatchesOnlyWithItsOwnEpoch() {
        appendThreeEpochs();
        index.moveStart(index.planStartMove(new OffsetAndEpoch(4, 1), true));
        assertTrue(index.planStartMove(new OffsetAndEpoch(4, 1), true).keepsBatches());
        assertFalse(index.planStartMove(new OffsetAndEpoch(4, 2), true).keepsBatches());
    }

    @Test
    void aRecoveredOrRebuiltIndexIsDurableAndAgreesWithTheBatches() {
        TreeMap<Integer, Long> starts = new TreeMap<>(Map.of(2, 4L, 5, 6L));
        LogIndex recovered = LogIndex.recovered(new OffsetAndEpoch(4, 1), starts, 9);
        assertEquals(9, recovered.flushedEndOffset());
        assertEquals(new OffsetAndEpoch(6, 2), recovered.endOffsetForEpoch(4));
        LogIndex rebuilt = LogIndex.of(new OffsetAndEpoch(4, 1), List.of(InMemoryRaftLogTest.batch(4, 2, 2),
                InMemoryRaftLogTest.batch(6, 5, 3)));
        assertEquals(recovered.epochStarts(), rebuilt.epochStarts());
        assertEquals(9, rebuilt.flushedEndOffset());
    }

    private void assertResets(OffsetAndEpoch id, boolean atBatchBoundary, String why) {
        LogIndex.StartMove move = index.planStartMove(id, atBatchBoundary);
        assertFalse(move.keepsBatches(), why);
        assertEquals(List.copyOf(index.epochStarts().keySet()), move.droppedEpochs(), why);
        assertEquals(OptionalInt.empty(), move.continuingEpoch(), why);
    }
}
