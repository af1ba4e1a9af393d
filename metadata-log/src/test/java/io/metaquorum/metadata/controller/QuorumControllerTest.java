package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatResponse;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuorumControllerTest {
    private final ControllerHarness h = new ControllerHarness();

    private static CreateTopicsRequest create(String... names) {
        List<Topic> topics = new ArrayList<>();
        for (String name : names) {
            topics.add(Topic.of(name, 3, 1));
        }
        return new CreateTopicsRequest(topics, false);
    }

    private void activeWithBrokers(int brokers) {
        activeWithBrokers(h, brokers);
    }

    private static void activeWithBrokers(ControllerHarness h, int brokers) {
        h.becomeLeader(1);
        h.commitAll();
        for (int id = 0; id < brokers; id++) {
            List<RegisterBrokerResponse> registered = new ArrayList<>();
            h.controller.registerBroker(ControllerFixture.registration(id, id, ""), h.nowMs, registered::add);
            h.commitAll();
            long epoch = registered.get(0).brokerEpoch();
            List<HeartbeatResponse> beats = new ArrayList<>();
            h.controller.heartbeat(new HeartbeatRequest(id, epoch, h.committed.lastCommittedOffset(), false, false),
                    h.nowMs, beats::add);
            h.commitAll();
            assertFalse(beats.get(0).isFenced());
        }
    }

    @Test
    void aStandbyAnswersNotControllerAndAppendsNothing() {
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 1_000, h.nowMs, answers::add);
        assertEquals(ErrorCode.NOT_CONTROLLER, answers.get(0).topic("t").error().code());
        assertTrue(h.appended.isEmpty());
    }

    @Test
    void aNewLeaderOfAnEmptyLogBootstrapsMetadataVersionOnce() {
        h.becomeLeader(1);
        assertEquals(1, h.appended.size());
        MetadataRecord bootstrap = h.appended.get(0).records().get(0);
        assertEquals(MetadataRecordCodec.METADATA_VERSION_FEATURE, bootstrap.getFeatureLevel().getName());
        assertEquals(1, h.appended.get(0).lastOffset(), "right after the leader-change record at 0");
        h.commitAll();
        h.controller.handleResign(1);
        h.becomeLeader(2);
        assertEquals(1, h.appended.size(), "committed before: the next leader does not write it again");
    }

    @Test
    void aCreateWaitingForCommitIsAnsweredOnlyOnceCommitted() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        h.acceptAll();
        assertTrue(answers.isEmpty(), "accepted by raft, not committed yet");
        assertNotNull(h.controller.decisionImage().topics().topic("t"), "the decision image has it already");
        assertNull(h.committed.topics().topic("t"));
        h.commitAll();
        assertEquals(ErrorCode.NONE, answers.get(0).topic("t").error().code());
        assertEquals(3, h.committed.topics().topic("t").partitions().size());
    }

    @Test
    void aSecondCreateOfTheSameNameBeforeTheFirstCommitsIsAlreadyExistsOnceTheFirstCommits() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        // Decided on the first create's uncommitted records: a failover could still lose them.
        assertTrue(answers.isEmpty(), "the second answer waits for the state it was decided on to commit");
        h.commitAll();
        assertEquals(ErrorCode.NONE, answers.get(0).topic("t").error().code());
        assertEquals(ErrorCode.TOPIC_ALREADY_EXISTS, answers.get(1).topic("t").error().code());
    }

    @Test
    void aSecondCreateDecidedOnRecordsLostInAFailoverIsNotController() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        h.controller.handleResign(h.controller.activeEpoch());
        assertEquals(2, answers.size());
        assertEquals(ErrorCode.NOT_CONTROLLER, answers.get(0).topic("t").error().code());
        assertEquals(ErrorCode.NOT_CONTROLLER, answers.get(1).topic("t").error().code());
    }

    @Test
    void raftsControlRecordsGoBehindTheAppendsMadeAndAheadOfTheNextWithoutEndingTheLeadership() {
        activeWithBrokers(1);
        int epoch = h.controller.activeEpoch();
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("a"), 30_000, h.nowMs, answers::add);
        long aLast = h.appended.get(h.appended.size() - 1).lastOffset();
        h.controller.handleControlRecords(epoch, List.of(ByteString.copyFromUtf8("a VotersRecord")));
        assertEquals(List.of(new ControllerHarness.ControlAppended(epoch, aLast + 1, 1)), h.controlAppended);
        h.controller.createTopics(create("b"), 30_000, h.nowMs, answers::add);
        assertEquals(aLast + 2, h.appended.get(h.appended.size() - 1).baseOffset(), "after the control record");
        h.commitAll();
        assertEquals(ErrorCode.NONE, answers.get(0).topic("a").error().code());
        assertEquals(ErrorCode.NONE, answers.get(1).topic("b").error().code());
        assertTrue(h.controller.isActive(), "its offsets held: it still leads");
        assertTrue(h.resignations.isEmpty());
    }

    @Test
    void controlRecordsOfAnEpochNoLongerLedAreDropped() {
        activeWithBrokers(1);
        int epoch = h.controller.activeEpoch();
        h.controller.handleResign(epoch);
        h.controller.handleControlRecords(epoch, List.of(ByteString.copyFromUtf8("a VotersRecord")));
        assertTrue(h.controlAppended.isEmpty());
    }

    @Test
    void aCreateThatAsksNotToWaitIsAnsweredOnceRaftAcceptsIt() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 0, h.nowMs, answers::add);
        assertTrue(answers.isEmpty());
        h.acceptAll();
        assertEquals(ErrorCode.NONE, answers.get(0).topic("t").error().code());
    }

    @Test
    void losingLeadershipFailsWhatWaitedWithNotControllerAndRevertsToTheCommittedImage() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t", "bad/name"), 30_000, h.nowMs, answers::add);
        h.acceptAll();
        h.controller.handleResign(1);
        CreateTopicsResponse answer = answers.get(0);
        assertEquals(ErrorCode.NOT_CONTROLLER, answer.topic("t").error().code());
        assertEquals(ErrorCode.INVALID_TOPIC_EXCEPTION, answer.topic("bad/name").error().code(),
                "a topic refused for itself keeps its own error");
        assertNull(h.controller.decisionImage().topics().topic("t"));
        assertFalse(h.controller.isActive());
    }

    @Test
    void aCreateNotCommittedInTimeIsRequestTimedOut() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 100, h.nowMs, answers::add);
        h.acceptAll();
        h.advance(99);
        assertTrue(answers.isEmpty());
        h.advance(1);
        assertEquals(ErrorCode.REQUEST_TIMED_OUT, answers.get(0).topic("t").error().code());
    }

    @Test
    void aRefusedAppendEndsTheLeadershipAndAsksRaftToResign() {
        activeWithBrokers(1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        h.controller.createTopics(create("t"), 30_000, h.nowMs, answers::add);
        h.controller.handleAppendRefused(1);
        assertEquals(List.of(1), h.resignations);
        assertEquals(ErrorCode.NOT_CONTROLLER, answers.get(0).topic("t").error().code());
    }

    @Test
    void aRequestOverTheAppendLimitIsRefusedWhole() {
        ControllerHarness small = new ControllerHarness(3);
        activeWithBrokers(small, 1);
        List<CreateTopicsResponse> answers = new ArrayList<>();
        int before = small.appended.size();
        small.controller.createTopics(new CreateTopicsRequest(List.of(Topic.of("t", 5, 1)), false), 0, small.nowMs,
                answers::add);
        assertEquals(ErrorCode.INVALID_REQUEST, answers.get(0).topic("t").error().code());
        assertEquals(before, small.appended.size());
    }

    @Test
    void theBrokerEpochIsTheOffsetOfItsRegistrationAndAnExpiredSessionIsFenced() {
        activeWithBrokers(0);
        List<RegisterBrokerResponse> registered = new ArrayList<>();
        h.controller.registerBroker(ControllerFixture.registration(4, 1, ""), h.nowMs, registered::add);
        ControllerHarness.Appended append = h.appended.get(h.appended.size() - 1);
        h.commitAll();
        assertEquals(append.baseOffset(), registered.get(0).brokerEpoch());
        List<HeartbeatResponse> beats = new ArrayList<>();
        h.controller.heartbeat(new HeartbeatRequest(4, registered.get(0).brokerEpoch(),
                h.committed.lastCommittedOffset(), false, false), h.nowMs, beats::add);
        h.commitAll();
        assertFalse(h.committed.cluster().broker(4).fenced());
        h.advance(ControllerHarness.SESSION_TIMEOUT_MS);
        h.commitAll();
        assertTrue(h.committed.cluster().broker(4).fenced(), "no heartbeat for the session timeout");
        assertTrue(h.controller.poll(h.nowMs) > h.nowMs, "the fenced broker's ended session sets no deadline already "
                + "past, which would spin the controller's event loop until the broker came back");
    }

    @Test
    void expiredSessionsAreFencedOneBrokerPerPoll() {
        activeWithBrokers(3);
        long next = h.advance(ControllerHarness.SESSION_TIMEOUT_MS);
        assertEquals(List.of(0), fencedIn(h.controller.decisionImage()), "the first expired, one broker per poll, so "
                + "heartbeats queued meanwhile run before the next fencing");
        assertTrue(next <= h.nowMs, "the next fencing is due at once");
        h.controller.poll(h.nowMs);
        h.controller.poll(h.nowMs);
        h.commitAll();
        assertEquals(List.of(0, 1, 2), fencedIn(h.committed));
        assertTrue(h.controller.poll(h.nowMs) > h.nowMs);
    }

    private static List<Integer> fencedIn(MetadataImage image) {
        return image.cluster().sortedById().stream().filter(BrokerRegistration::fenced).map(BrokerRegistration::id)
                .toList();
    }

    @Test
    void anIdleActiveControllerWritesANoOpEveryIdleInterval() {
        activeWithBrokers(0);
        int before = h.appended.size();
        long next = h.advance(ControllerHarness.IDLE_INTERVAL_MS);
        assertEquals(before + 1, h.appended.size());
        assertTrue(h.appended.get(before).records().get(0).hasNoOp());
        assertEquals(h.nowMs + ControllerHarness.IDLE_INTERVAL_MS, next);
    }

    /** Three unfenced brokers (0-2) and six single-partition RF-3 topics, with appends of at most 4 records. */
    private static ControllerHarness sixPartitionsOnThreeBrokersWithTinyAppends() {
        ControllerHarness small = new ControllerHarness(4);
        activeWithBrokers(small, 3);
        for (int i = 0; i < 6; i++) {
            small.controller.createTopics(new CreateTopicsRequest(List.of(Topic.of("t" + i, 1, 3)), false), 0,
                    small.nowMs, answer -> { });
            small.commitAll();
        }
        return small;
    }

    /** Expires broker 0's session while 1 and 2 keep heartbeating; returns the appends the fencing made. */
    private static List<ControllerHarness.Appended> expireBrokerZero(ControllerHarness small) {
        small.nowMs += ControllerHarness.SESSION_TIMEOUT_MS / 2;
        for (int id = 1; id <= 2; id++) {
            long epoch = small.committed.cluster().broker(id).epoch();
            small.controller.heartbeat(new HeartbeatRequest(id, epoch, small.committed.lastCommittedOffset(), false,
                    false), small.nowMs, beat -> { });
        }
        int before = small.appended.size();
        small.advance(ControllerHarness.SESSION_TIMEOUT_MS / 2 + 1);
        return new ArrayList<>(small.appended.subList(before, small.appended.size()));
    }

    private static boolean brokerZeroLeftEveryPartition(MetadataImage image) {
        return image.topics().sortedByName().stream().allMatch(t -> !t.partition(0).inIsr(0)
                && t.partition(0).leader() != 0 && t.partition(0).leader() >= 0);
    }

    @Test
    void fencingMoreChangesThanOneAppendHoldsIsAppendedInSeveralBatchesInOrder() {
        ControllerHarness small = sixPartitionsOnThreeBrokersWithTinyAppends();
        List<ControllerHarness.Appended> fencing = expireBrokerZero(small);
        List<MetadataRecord> records = fencing.stream().flatMap(a -> a.records().stream()).toList();
        assertTrue(records.get(0).hasFenceBroker(), "the broker is fenced first: " + records.get(0));
        assertEquals(7, records.stream().filter(r -> r.hasFenceBroker() || r.hasPartitionChange()).count());
        assertTrue(fencing.stream().filter(a -> a.records().stream().anyMatch(MetadataRecord::hasPartitionChange))
                .count() >= 2, "split over batches: " + fencing);
        assertTrue(fencing.stream().allMatch(a -> a.records().size() <= 4), "no append over the limit");
        small.commitAll();
        assertTrue(small.committed.cluster().broker(0).fenced());
        assertTrue(brokerZeroLeftEveryPartition(small.committed), "every ISR and leadership moved");
    }

    @Test
    void aNewActiveControllerFinishesAFencingItsPredecessorAppendedOnlyInPart() {
        ControllerHarness small = sixPartitionsOnThreeBrokersWithTinyAppends();
        int before = small.appended.size();
        expireBrokerZero(small);
        small.acceptAll();
        small.commitFirst(before + 1);
        small.loseUncommitted();
        small.controller.handleResign(1);
        assertTrue(small.committed.cluster().broker(0).fenced(), "the first batch fenced it");
        assertFalse(brokerZeroLeftEveryPartition(small.committed), "the failover cut the fencing short");
        small.becomeLeader(2);
        small.commitAll();
        assertTrue(brokerZeroLeftEveryPartition(small.committed), "the new controller finished it");
    }
}
