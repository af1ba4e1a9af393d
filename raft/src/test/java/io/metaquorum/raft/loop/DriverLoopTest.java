package io.metaquorum.raft.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.InMemoryQuorumStateStore;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The driver sequence on a single voter, stepped by hand: no thread, the time handed in. */
class DriverLoopTest {
    private static final RaftConfig SINGLE_VOTER = new RaftConfig("test-cluster", 1, List.of(1),
            new RaftTimeouts(50, 200, 50, 0, 200, 10, 100), RaftLimits.DEFAULTS);
    private static final RaftConfig FOLLOWER_OF_THREE = new RaftConfig("test-cluster", 2, List.of(1, 2, 3),
            new RaftTimeouts(50, 200, 50, 0, 200, 10, 100), RaftLimits.DEFAULTS);

    private final InMemoryRaftLog log = new InMemoryRaftLog();
    private final List<String> events = new ArrayList<>();
    private final List<ByteString> committed = new ArrayList<>();
    private final List<RaftStatus> published = new ArrayList<>();
    private final ArrayDeque<DriverLoop.CoreTask> tasks = new ArrayDeque<>();
    private final ArrayDeque<RaftMessage> inbound = new ArrayDeque<>();
    private long nowMs = 1_000;

    private DriverLoop newLoop(RaftConfig config) {
        return new DriverLoop(config, log, new InMemoryQuorumStateStore(), new Random(7), new CommitListener(), nowMs,
                message -> events.add("send"), published::add);
    }

    private long pass(DriverLoop loop) {
        long deadline = loop.runPass(nowMs, tasks::poll, inbound::poll);
        if (loop.awaitsFlush()) {
            events.add("flush");
            deadline = loop.completeFlush(nowMs);
        }
        return deadline;
    }

    /** Passes at each deadline until the single voter leads; a bounded number of them. */
    private DriverLoop leader() {
        DriverLoop loop = newLoop(SINGLE_VOTER);
        for (int i = 0; i < 100 && !loop.core().status().isLeader(); i++) {
            long next = pass(loop);
            nowMs = Math.max(nowMs, Math.min(next, nowMs + 1_000));
        }
        assertTrue(loop.core().status().isLeader(), "no leader after 100 passes: " + loop.core().status());
        return loop;
    }

    @Test
    void aPassRunsTasksThenMessagesThenStopsAtTheFlushTheCallerMakes() {
        DriverLoop loop = leader();
        tasks.add((core, now) -> {
            events.add("task");
            core.append(core.status().epoch(), List.of(ByteString.copyFromUtf8("a")), now);
        });
        inbound.add(new RequestFailure(3, 99, RequestFailure.Reason.UNREACHABLE));
        events.clear();
        int publishedBefore = published.size();

        loop.runPass(nowMs, tasks::poll, () -> {
            events.add("message");
            return inbound.poll();
        });

        assertTrue(loop.awaitsFlush());
        assertEquals(List.of("task", "message", "message"), events, "tasks first, then messages until none");
        assertTrue(log.hasUnflushed());
        assertTrue(committed.isEmpty(), "nothing commits before the flush");
        assertEquals(publishedBefore, published.size(), "the status is published once the pass is complete");
        loop.completeFlush(nowMs + 5);
        assertFalse(log.hasUnflushed());
        assertEquals(List.of(ByteString.copyFromUtf8("a")), committed);
        assertEquals(publishedBefore + 1, published.size());
        assertEquals(log.endOffset(), published.get(published.size() - 1).highWatermark());
    }

    @Test
    void aPassHandlesAtMostItsBoundOfMessagesAndLeavesTheRestQueued() {
        DriverLoop loop = leader();
        for (int i = 0; i < DriverLoop.MESSAGES_PER_PASS_MAX + 10; i++) {
            inbound.add(new RequestFailure(3, 1_000_000 + i, RequestFailure.Reason.UNREACHABLE));
        }
        pass(loop);
        assertEquals(10, inbound.size());
    }

    @Test
    void theFlushIsOnlyCompletedForAPassThatAwaitsIt() {
        DriverLoop loop = leader();
        assertThrows(InvariantViolation.class, () -> loop.completeFlush(nowMs));
        tasks.add((core, now) -> core.append(core.status().epoch(), List.of(ByteString.copyFromUtf8("b")), now));
        loop.runPass(nowMs, tasks::poll, inbound::poll);
        assertThrows(InvariantViolation.class, () -> loop.runPass(nowMs, tasks::poll, inbound::poll),
                "a pass may not begin while the last one's records are not synced");
    }

    @Test
    void aRequestedShutdownBeginsAtTheNextPassAndEndsAtOnceForANonLeader() {
        DriverLoop loop = newLoop(FOLLOWER_OF_THREE);
        pass(loop);
        loop.requestShutdown(500);
        assertFalse(loop.isShutdownBegun());
        assertFalse(loop.isShutdownOver());
        long deadline = pass(loop);
        assertTrue(loop.isShutdownBegun());
        assertTrue(loop.isShutdownOver(), "a replica that did not lead stops at once");
        assertTrue(deadline <= nowMs + 500, "the pass wakes by the shutdown deadline at the latest: " + deadline);
    }

    @Test
    void timeNeverGoesBackwardsForTheCore() {
        DriverLoop loop = leader();
        pass(loop);
        long before = nowMs;
        tasks.add((core, now) -> events.add("task at " + now));
        events.clear();
        nowMs = before - 500;
        pass(loop);
        assertEquals(List.of("task at " + before), events.subList(0, 1));
    }

    private final class CommitListener implements RaftListener {
        @Override
        public void handleCommit(List<RecordBatch> batches) {
            for (RecordBatch batch : batches) {
                if (!batch.getControl()) {
                    committed.addAll(RecordBatches.records(batch));
                }
            }
        }

        @Override
        public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
        }

        @Override
        public void handleBecomeLeader(int epoch, long epochStartOffset) {
        }

        @Override
        public void handleResign(int epoch) {
        }
    }
}
