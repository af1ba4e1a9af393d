package io.metaquorum.node.controller;

import com.google.protobuf.ByteString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.controller.AppendSink;
import io.metaquorum.metadata.controller.ControllerConfig;
import io.metaquorum.metadata.controller.ControllerManagers;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The order in which a controller turn takes its work, and what it publishes as "active" while it runs. */
class ControllerTurnsTest {
    private static final AppendSink NO_APPENDS = new AppendSink() {
        @Override
        public void append(int epoch, long expectedLastOffset, List<MetadataRecord> records) {
        }

        @Override
        public void appendControl(int epoch, long expectedLastOffset, List<ByteString> records) {
        }

        @Override
        public void resign(int epoch) {
        }
    };
    private static final Time FIXED = new Time() {
        @Override
        public long milliseconds() {
            return 1_000;
        }

        @Override
        public long nanoseconds() {
            return 1_000_000_000L;
        }
    };

    private final QuorumController controller = new QuorumController("[test] ", new ControllerConfig(
            new ControllerManagers.Settings(ReplicationDefaults.KAFKA, 9_000, Map.of()), CreateTopicPolicy.NONE, 500,
            8192), new SplittableRandom(1), NO_APPENDS);
    private final SerialControllerQueues queues = new SerialControllerQueues();
    private final ControllerTurns turns = new ControllerTurns(controller, queues, FIXED);

    @Test
    void activeOnceTheBecomeLeaderEventRanEvenWhileLaterRaftEventsAreStillRunning() {
        List<Boolean> seenMidTurn = new ArrayList<>();
        queues.addRaftEvent((c, nowMs) -> c.handleCommitted(MetadataImage.EMPTY));
        queues.addRaftEvent((c, nowMs) -> c.handleBecomeLeader(1, -1, nowMs));
        queues.addRaftEvent((c, nowMs) -> seenMidTurn.add(turns.isActive()));
        assertFalse(turns.isActive());
        turns.runTurn();
        assertEquals(List.of(true), seenMidTurn, "requests arriving behind a backlog must not be refused as "
                + "NOT_CONTROLLER by the active controller itself");
    }

    @Test
    void raftEventsRunBeforeRequestsAndAgainAfterEachRequest() {
        List<String> order = new ArrayList<>();
        queues.addRaftEvent((c, nowMs) -> order.add("raft-1"));
        assertTrue(queues.offerRequest((c, nowMs) -> {
            order.add("request-1");
            queues.addRaftEvent((c2, now2) -> order.add("raft-2"));
        }));
        assertTrue(queues.offerRequest((c, nowMs) -> order.add("request-2")));
        turns.runTurn();
        assertEquals(List.of("raft-1", "request-1", "raft-2", "request-2"), order);
        assertFalse(queues.hasWork());
    }

    @Test
    void aTurnRunsAtMostItsBoundOfRequestsAndAsksToRunAgainAtOnce() {
        int[] ran = {0};
        for (int i = 0; i < ControllerTurns.REQUESTS_PER_TURN_MAX + 1; i++) {
            assertTrue(queues.offerRequest((c, nowMs) -> ran[0]++));
        }
        assertEquals(FIXED.milliseconds(), turns.runTurn(), "requests left: run again now");
        assertEquals(ControllerTurns.REQUESTS_PER_TURN_MAX, ran[0]);
        assertTrue(queues.hasWork());
        turns.runTurn();
        assertEquals(ControllerTurns.REQUESTS_PER_TURN_MAX + 1, ran[0]);
    }

    @Test
    void aFullRequestQueueRefuses() {
        for (int i = 0; i < ControllerQueues.REQUEST_QUEUE_MAX; i++) {
            assertTrue(queues.offerRequest((c, nowMs) -> { }));
        }
        assertFalse(queues.offerRequest((c, nowMs) -> { }));
    }
}
