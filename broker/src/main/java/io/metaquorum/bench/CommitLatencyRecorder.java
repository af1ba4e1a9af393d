package io.metaquorum.bench;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * The bench's state machine: for every committed offset range it finds the appends that
 * ended in it and records append-to-commit latency, weighted by the records each carried.
 * Appends are registered by the load generator (any thread); commits arrive on the driver
 * thread.
 */
final class CommitLatencyRecorder implements RaftListener {
    private static final long LATENCY_MICROS_MAX = 60_000_000L;

    /** Last offset of an append -> (submit time, record count). */
    private final ConcurrentSkipListMap<Long, long[]> pending = new ConcurrentSkipListMap<>();
    private final Recorder latencyMicros = new Recorder(LATENCY_MICROS_MAX, 3);
    private final AtomicLong committedRecords = new AtomicLong();
    private final AtomicLong committedEndOffset = new AtomicLong();

    void onAppended(long lastOffset, int records, long submitNanos) {
        pending.put(lastOffset, new long[] {submitNanos, records});
    }

    long committedRecords() {
        return committedRecords.get();
    }

    long committedEndOffset() {
        return committedEndOffset.get();
    }

    int pendingAppends() {
        return pending.size();
    }

    /** The histogram since the previous call (the first call after warm-up discards warm-up samples). */
    org.HdrHistogram.Histogram takeInterval() {
        return latencyMicros.getIntervalHistogram();
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        long now = System.nanoTime();
        RecordBatch last = batches.get(batches.size() - 1);
        long end = last.getBaseOffset() + last.getRecordCount();
        for (RecordBatch batch : batches) {
            if (!batch.getControl()) {
                committedRecords.addAndGet(batch.getRecordCount());
            }
        }
        committedEndOffset.set(end);
        Map<Long, long[]> done = pending.headMap(end);
        for (long[] append : done.values()) {
            long micros = Math.min(LATENCY_MICROS_MAX, Math.max(1, (now - append[0]) / 1_000));
            latencyMicros.recordValueWithCount(micros, append[1]);
        }
        done.clear();
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, byte[] content) {
        // The bench never snapshots.
    }

    @Override
    public void handleLeaderChange(int leaderId, int epoch) {
        // Leadership is read from the node's status by the load generator.
    }
}
