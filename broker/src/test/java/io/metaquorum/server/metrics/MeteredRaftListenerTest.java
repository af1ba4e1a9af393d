package io.metaquorum.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.metaquorum.server.status.CommitLatencySeconds;
import io.metaquorum.server.status.RecentLeaders;
import io.metaquorum.server.status.StatusReport.StatusHistory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the state machine's wrapper counts per committed batch, and that it passes every call through. */
class MeteredRaftListenerTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Timer commitLatency = Timer.builder("commit").register(registry);
    private final Counter fetchRecords = Counter.builder("fetch").register(registry);
    private final Counter elections = Counter.builder("elections").register(registry);
    private final Counter leaderChanges = Counter.builder("changes").register(registry);
    private final List<String> calls = new ArrayList<>();
    private final StatusHistory history = StatusHistory.empty();
    private final MeteredRaftListener listener = new MeteredRaftListener(new RecordingListener(), commitLatency,
            fetchRecords, elections, leaderChanges, history);

    private static RecordBatch batch(int epoch, boolean control, int records, long appendTimeMs) {
        return RecordBatch.newBuilder().setEpoch(epoch).setControl(control).setRecordCount(records)
                .setAppendTimeMs(appendTimeMs).build();
    }

    @Test
    void aFollowerCountsTheRecordsItReceivesButNotControlBatches() {
        listener.handleCommit(List.of(batch(1, true, 1, 0), batch(1, false, 3, 0), batch(1, false, 2, 0)));

        assertEquals(5, fetchRecords.count());
        assertEquals(0, commitLatency.count());
        assertEquals(List.of("commit 3"), calls);
    }

    @Test
    void theLeaderTimesTheBatchesOfItsEpochAndCountsNoneAsFetched() {
        listener.handleBecomeLeader(2, 10);
        long nowMs = System.currentTimeMillis();
        listener.handleCommit(List.of(batch(1, false, 4, 0), batch(2, false, 3, nowMs - 5), batch(2, true, 1, nowMs)));

        assertEquals(2, commitLatency.count(), "one per batch of its epoch, control ones too");
        assertEquals(4, fetchRecords.count(), "the earlier leader's batch");
        List<CommitLatencySeconds.Second> seconds = history.commitLatency().before(System.currentTimeMillis() + 1_000);
        assertEquals(2, seconds.stream().mapToLong(CommitLatencySeconds.Second::count).sum(),
                "the status page's chart counts the same batches: " + seconds);
        listener.handleResign(2);
        listener.handleCommit(List.of(batch(2, false, 6, nowMs)));
        assertEquals(2, commitLatency.count(), "no longer the leader");
        assertEquals(10, fetchRecords.count());
    }

    @Test
    void aNewEpochWithALeaderIsAnElectionAndAnotherLeaderALeaderChange() {
        listener.handleLeaderChange(LeaderAndEpoch.noLeader(0));
        listener.handleLeaderChange(new LeaderAndEpoch(1, 1));
        listener.handleLeaderChange(LeaderAndEpoch.noLeader(1));
        listener.handleLeaderChange(new LeaderAndEpoch(1, 2));
        listener.handleLeaderChange(new LeaderAndEpoch(3, 3));
        listener.handleLeaderChange(new LeaderAndEpoch(3, 3));

        assertEquals(3, elections.count(), "epochs 1, 2 and 3");
        assertEquals(2, leaderChanges.count(), "none to 1, 1 to 3");
        assertEquals(List.of(1, 2, 3), history.leaders().changes().stream().map(RecentLeaders.Change::epoch).toList(),
                "the status page lists each election once");
        assertEquals(3, history.leaders().changes().get(2).leaderId());
        assertEquals(6, calls.size(), "every report passed on");
    }

    private final class RecordingListener implements RaftListener {
        @Override
        public void handleCommit(List<RecordBatch> batches) {
            calls.add("commit " + batches.size());
        }

        @Override
        public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
            calls.add("snapshot");
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
            calls.add("leader " + leader);
        }

        @Override
        public void handleBecomeLeader(int epoch, long epochStartOffset) {
            calls.add("lead " + epoch);
        }

        @Override
        public void handleResign(int epoch) {
            calls.add("resign " + epoch);
        }
    }
}
