package io.metaquorum.bench;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * The bench's state machine: for every committed offset range it finds the appends that
 * ended in it and records append-to-commit latency, weighted by the records each carried.
 * Appends are registered by the load generator (any thread); commits arrive on the driver
 * thread.
 *
 * <p>An append may be registered after its commit was seen: the driver can append and
 * commit it before the generator thread gets to register the result. Its latency is then
 * taken from the time of the commit that covered it (kept for {@link #COMMIT_TIMES_KEPT_NANOS}),
 * never from the next commit, which would add a whole inter-arrival gap to it.
 */
final class CommitLatencyRecorder implements RaftListener {
    private static final long LATENCY_MICROS_MAX = 60_000_000L;
    private static final long COMMIT_TIMES_KEPT_NANOS = 10_000_000_000L;

    /** Last offset of an append -> (due time, record count). Guarded by this. */
    private final TreeMap<Long, long[]> pending = new TreeMap<>();
    /** End offset of a commit -> when it was seen; the recent ones. Guarded by this. */
    private final TreeMap<Long, Long> commitTimes = new TreeMap<>();
    private final Recorder latencyMicros = new Recorder(LATENCY_MICROS_MAX, 3);
    private final AtomicLong committedRecords = new AtomicLong();

    synchronized void onAppended(long lastOffset, int records, long dueNanos) {
        Map.Entry<Long, Long> commit = commitTimes.higherEntry(lastOffset);
        if (commit != null) {
            record(commit.getValue(), dueNanos, records);
        } else {
            pending.put(lastOffset, new long[] {dueNanos, records});
        }
    }

    long committedRecords() {
        return committedRecords.get();
    }

    /** The histogram since the previous call (the first call after warm-up discards warm-up samples). */
    org.HdrHistogram.Histogram takeInterval() {
        return latencyMicros.getIntervalHistogram();
    }

    @Override
    public synchronized void handleCommit(List<RecordBatch> batches) {
        long now = System.nanoTime();
        RecordBatch last = batches.get(batches.size() - 1);
        long end = last.getBaseOffset() + last.getRecordCount();
        for (RecordBatch batch : batches) {
            if (!batch.getControl()) {
                committedRecords.addAndGet(batch.getRecordCount());
            }
        }
        Map<Long, long[]> done = pending.headMap(end);
        for (long[] append : done.values()) {
            record(now, append[0], append[1]);
        }
        done.clear();
        commitTimes.put(end, now);
        while (now - commitTimes.firstEntry().getValue() > COMMIT_TIMES_KEPT_NANOS) {
            commitTimes.pollFirstEntry();
        }
    }

    private void record(long commitNanos, long dueNanos, long records) {
        long micros = Math.min(LATENCY_MICROS_MAX, Math.max(1, (commitNanos - dueNanos) / 1_000));
        latencyMicros.recordValueWithCount(micros, records);
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        // The bench never snapshots.
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        // Leadership is read from the node's status by the load generator.
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        // The bench appends in whatever epoch the node leads, pinning none.
    }

    @Override
    public void handleResign(int epoch) {
        // Appends lost with a leadership simply never commit; their latency is not recorded.
    }
}
