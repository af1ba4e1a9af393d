package io.metaquorum.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class LatencyIntervalsTest {
    /** Generous: a bound only a hung reporter reaches, never a timing assertion. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void theReporterThreadClosesDueIntervalsWithoutTheGenerator() {
        CommitLatencyRecorder recorder = new CommitLatencyRecorder();
        long now = System.nanoTime();
        // Started two seconds ago, measuring from the start: the first intervals are overdue.
        LatencyIntervals intervals = new LatencyIntervals(recorder, now - TimeUnit.SECONDS.toNanos(2),
                now - TimeUnit.SECONDS.toNanos(2));
        intervals.startReporter();
        try {
            awaitTrue(intervals::isMeasuring);
            recorder.onAppended(2, 3, System.nanoTime());
            recorder.handleCommit(List.of(RecordBatches.build(0, 1, 0, false,
                    Collections.nCopies(3, ByteString.copyFromUtf8("r")))));
            awaitTrue(() -> intervals.measured().getTotalCount() > 0);
        } finally {
            intervals.finish(System.nanoTime());
        }
        assertEquals(3, intervals.measured().getTotalCount(), "the reporter closed the intervals on its own");
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long giveUp = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean() && System.nanoTime() - giveUp < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
