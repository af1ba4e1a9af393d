package io.metaquorum.raft.core;

import io.metaquorum.raft.AppendResult;
import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A single-voter quorum driven by hand: it elects itself, and every step flushes, so appends commit at once. */
final class SoloLeader {
    final InMemoryRaftLog log = new InMemoryRaftLog();
    final RaftCore core;
    long nowMs = 1_000;

    SoloLeader(RaftLimits limits, RaftListener listener) {
        RaftConfig config = new RaftConfig(CoreCluster.CLUSTER_ID, 1, List.of(1), RaftTimeouts.DEFAULTS, limits);
        core = new RaftCore(config, log, new InMemoryQuorumStateStore(), new Random(7), listener, nowMs);
        for (int i = 0; i < 100 && !core.status().isLeader(); i++) {
            nowMs = step();
        }
        if (!core.status().isLeader()) {
            throw new AssertionError("a single voter did not elect itself: " + core.status());
        }
        step();
    }

    int epoch() {
        return core.status().epoch();
    }

    AppendResult append(int epoch, List<ByteString> records) {
        return core.append(epoch, records, nowMs);
    }

    /** One driver iteration; returns the core's next deadline. */
    long step() {
        long deadline = core.poll(nowMs);
        core.takeOutbound();
        if (log.hasUnflushed()) {
            log.flush();
            deadline = core.poll(nowMs);
            core.takeOutbound();
        }
        return deadline;
    }

    /** The data batches in the log (the leader-change control batch left out). */
    List<RecordBatch> dataBatches() {
        List<RecordBatch> batches = new ArrayList<>();
        for (RecordBatch batch : log.read(0, Integer.MAX_VALUE)) {
            if (!batch.getControl()) {
                batches.add(batch);
            }
        }
        return batches;
    }

    /** The records at {@code first .. last}, read back from the one batch that must hold them all. */
    List<ByteString> recordsOfOneBatch(long first, long last) {
        for (RecordBatch batch : log.read(0, Integer.MAX_VALUE)) {
            if (batch.getBaseOffset() <= first && last < RecordBatches.endOffset(batch)) {
                List<ByteString> records = RecordBatches.records(batch);
                int from = (int) (first - batch.getBaseOffset());
                return records.subList(from, from + (int) (last - first + 1));
            }
        }
        throw new AssertionError("no single batch holds offsets " + first + " to " + last);
    }
}
