package io.metaquorum.server.metrics;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.server.status.StatusReport.StatusHistory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The node's state machine seen from raft, counted on the way through (docs/metrics.md): per
 * committed batch, never per record, on the driver thread, no lock and no allocation. On the
 * leader, a batch of its own epoch gives the commit latency (now minus the append time the
 * leader stamped on it, Kafka's commit-latency); elsewhere its records are the ones fetched
 * from the leader (fetch-records). A leader announced in a new epoch is one election, a
 * leader other than the last one known a leader change. The status page's history
 * ({@link StatusHistory}) is fed here too: the commit latency per second without lock or
 * allocation, and each election (rare) under the history's lock.
 *
 * <p>Fields other than the meters are touched on the driver thread only.
 */
final class MeteredRaftListener implements RaftListener {
    private final RaftListener delegate;
    private final Timer commitLatency;
    private final Counter fetchRecords;
    private final Counter elections;
    private final Counter leaderChanges;
    private final StatusHistory history;
    /** The epoch this replica leads with its state machine caught up, -1 when none. */
    private int ledEpoch = -1;
    /** The highest epoch a leader was announced in, -1 before any. */
    private int electedEpoch = -1;
    /** The last leader announced, -1 before any (never reset to -1 once known). */
    private int lastLeaderId = LeaderAndEpoch.NO_LEADER;

    MeteredRaftListener(RaftListener delegate, Timer commitLatency, Counter fetchRecords, Counter elections,
                        Counter leaderChanges, StatusHistory history) {
        this.delegate = delegate;
        this.commitLatency = commitLatency;
        this.fetchRecords = fetchRecords;
        this.elections = elections;
        this.leaderChanges = leaderChanges;
        this.history = history;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        long fetched = 0;
        long nowMs = ledEpoch >= 0 ? System.currentTimeMillis() : 0;
        for (int i = 0; i < batches.size(); i++) {
            RecordBatch batch = batches.get(i);
            if (ledEpoch >= 0 && batch.getEpoch() == ledEpoch) {
                long latencyMs = Math.max(0, nowMs - batch.getAppendTimeMs());
                commitLatency.record(latencyMs, TimeUnit.MILLISECONDS);
                history.commitLatency().record(nowMs, latencyMs);
            } else if (!batch.getControl()) {
                fetched += batch.getRecordCount();
            }
        }
        if (fetched > 0) {
            fetchRecords.increment(fetched);
        }
        delegate.handleCommit(batches);
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        delegate.handleLoadSnapshot(snapshotId, snapshot);
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        if (leader.hasLeader()) {
            if (leader.epoch() > electedEpoch) {
                electedEpoch = leader.epoch();
                elections.increment();
                history.leaders().record(System.currentTimeMillis(), leader.epoch(), leader.leaderId());
            }
            if (leader.leaderId() != lastLeaderId) {
                lastLeaderId = leader.leaderId();
                leaderChanges.increment();
            }
        }
        delegate.handleLeaderChange(leader);
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        ledEpoch = epoch;
        delegate.handleBecomeLeader(epoch, epochStartOffset);
    }

    @Override
    public boolean handleControlRecords(int epoch, List<ByteString> records) {
        return delegate.handleControlRecords(epoch, records);
    }

    @Override
    public void handleResign(int epoch) {
        ledEpoch = -1;
        delegate.handleResign(epoch);
    }
}
