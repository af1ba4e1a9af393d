package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CommitLatencyRecorderTest {
    private static final long FIVE_MS = 5_000_000L;

    private static void commit(CommitLatencyRecorder recorder, long baseOffset, int records) {
        recorder.handleCommit(List.of(RecordBatches.build(baseOffset, 1, 0, false,
                Collections.nCopies(records, ByteString.copyFromUtf8("r")))));
    }

    @Test
    void anAppendRegisteredBeforeItsCommitIsTimedAtThatCommit() {
        CommitLatencyRecorder recorder = new CommitLatencyRecorder();
        long due = System.nanoTime() - FIVE_MS;
        recorder.onAppended(2, 3, due);
        commit(recorder, 0, 3);
        long after = System.nanoTime();
        Histogram latency = recorder.takeInterval();
        assertEquals(3, latency.getTotalCount());
        // The histogram keeps 3 significant digits: compare against the bounds of the values' buckets.
        assertTrue(latency.highestEquivalentValue(latency.getMinValue()) >= FIVE_MS / 1_000);
        assertTrue(latency.lowestEquivalentValue(latency.getMaxValue()) <= (after - due) / 1_000);
        assertEquals(3, recorder.committedRecords());
    }

    @Test
    void anAppendRegisteredAfterItsCommitIsTimedAtThatCommitNotTheNextOne() {
        CommitLatencyRecorder recorder = new CommitLatencyRecorder();
        long due = System.nanoTime() - FIVE_MS;
        commit(recorder, 0, 1);
        long committedBy = System.nanoTime();
        recorder.onAppended(0, 1, due);
        Histogram latency = recorder.takeInterval();
        assertEquals(1, latency.getTotalCount());
        assertTrue(latency.lowestEquivalentValue(latency.getMaxValue()) <= (committedBy - due) / 1_000);
        commit(recorder, 1, 1);
        assertEquals(0, recorder.takeInterval().getTotalCount());
    }

    @Test
    void anUncommittedAppendIsNotTimed() {
        CommitLatencyRecorder recorder = new CommitLatencyRecorder();
        commit(recorder, 0, 1);
        recorder.onAppended(1, 1, System.nanoTime());
        assertEquals(0, recorder.takeInterval().getTotalCount());
        commit(recorder, 1, 1);
        assertEquals(1, recorder.takeInterval().getTotalCount());
    }
}
