package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatResponse;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.protocol.ErrorCode;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Broker registration, heartbeats, fencing and the leadership moves that follow. */
class ClusterControlManagerTest {
    private final ControllerFixture fixture = new ControllerFixture();

    private HeartbeatResponse heartbeat(int id, long epoch, long metadataOffset) {
        return heartbeat(id, epoch, metadataOffset, false);
    }

    private HeartbeatResponse heartbeat(int id, long epoch, long metadataOffset, boolean wantShutDown) {
        return fixture.apply(fixture.cluster.heartbeat(new HeartbeatRequest(id, epoch, metadataOffset, false,
                wantShutDown), fixture.nowMs));
    }

    private PartitionRegistration partition(String topic, int index) {
        return fixture.image().topics().topic(topic).partition(index);
    }

    @Test
    void aNewRegistrationStartsFencedWithItsOffsetAsEpoch() {
        long offset = fixture.nextOffset();
        RegisterBrokerResponse response = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 1, "r1"), offset, fixture.nowMs));
        assertEquals(ApiError.NONE, response.error());
        assertEquals(offset, response.brokerEpoch());
        assertTrue(fixture.image().cluster().broker(1).fenced());
        assertEquals("r1", fixture.image().cluster().broker(1).rack());
    }

    @Test
    void aHeartbeatUnfencesOnlyOnceCaughtUpToTheRegistration() {
        long epoch = fixture.apply(fixture.cluster.registerBroker(ControllerFixture.registration(1, 1, ""),
                5, fixture.nowMs)).brokerEpoch();
        HeartbeatResponse behind = heartbeat(1, epoch, epoch - 1);
        assertFalse(behind.isCaughtUp());
        assertTrue(behind.isFenced());
        assertTrue(fixture.image().cluster().broker(1).fenced());
        HeartbeatResponse caughtUp = heartbeat(1, epoch, epoch);
        assertTrue(caughtUp.isCaughtUp());
        assertFalse(caughtUp.isFenced());
        assertFalse(fixture.image().cluster().broker(1).fenced());
    }

    @Test
    void aHeartbeatWithAnOldEpochIsStaleAndAnUnknownBrokerIsNotRegistered() {
        long epoch = fixture.addBroker(1, "");
        assertEquals(ErrorCode.STALE_BROKER_EPOCH, heartbeat(1, epoch - 1, 100).error().code());
        assertEquals(ErrorCode.NONE, heartbeat(1, epoch, 100).error().code());
        assertEquals(ErrorCode.BROKER_ID_NOT_REGISTERED, heartbeat(9, 0, 100).error().code());
    }

    @Test
    void anotherIncarnationIsADuplicateWhileTheSessionLivesAndReplacesItAfter() {
        long oldEpoch = fixture.addBroker(1, "");
        RegisterBrokerResponse duplicate = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 2, ""), fixture.nextOffset(), fixture.nowMs + 1));
        assertEquals(ErrorCode.DUPLICATE_BROKER_REGISTRATION, duplicate.error().code());
        RegisterBrokerResponse sameIncarnation = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 1, ""), fixture.nextOffset(), fixture.nowMs + 1));
        assertEquals(ApiError.NONE, sameIncarnation.error(), "a restart of the same incarnation re-registers");
        fixture.nowMs += ControllerFixture.SESSION_TIMEOUT_MS + 1;
        RegisterBrokerResponse replaced = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 2, ""), fixture.nextOffset(), fixture.nowMs));
        assertEquals(ApiError.NONE, replaced.error());
        assertTrue(replaced.brokerEpoch() > oldEpoch);
        assertEquals(replaced.brokerEpoch(), fixture.image().cluster().broker(1).epoch());
        assertTrue(fixture.image().cluster().broker(1).fenced(), "the new registration starts fenced");
    }

    @Test
    void aFencedRegistrationHoldsNoSessionSoAnotherIncarnationReplacesItAtOnce() {
        long oldEpoch = fixture.addBroker(1, "");
        HeartbeatResponse shutDown = heartbeat(1, oldEpoch, fixture.nextOffset(), true);
        assertTrue(shutDown.isFenced(), "a broker that asks to shut down is fenced");
        RegisterBrokerResponse restarted = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 2, ""), fixture.nextOffset(), fixture.nowMs + 1));
        assertEquals(ApiError.NONE, restarted.error(), "the session of a fenced registration does not hold the id");
        assertTrue(restarted.brokerEpoch() > oldEpoch);

        RegisterBrokerResponse recovering = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 3, ""), fixture.nextOffset(), fixture.nowMs + 2));
        assertEquals(ApiError.NONE, recovering.error(), "nor does one that was never unfenced");
        assertEquals(recovering.brokerEpoch(), fixture.image().cluster().broker(1).epoch());
        heartbeat(1, recovering.brokerEpoch(), recovering.brokerEpoch(), false);
        assertFalse(fixture.image().cluster().broker(1).fenced());
        RegisterBrokerResponse duplicate = fixture.apply(fixture.cluster.registerBroker(
                ControllerFixture.registration(1, 4, ""), fixture.nextOffset(), fixture.nowMs + 3));
        assertEquals(ErrorCode.DUPLICATE_BROKER_REGISTRATION, duplicate.error().code(),
                "an unfenced registration with a live session keeps its id");
    }

    @Test
    void sessionExpiryFencesAndMovesLeadershipToAnotherInSyncReplica() {
        fixture.addBrokers(3);
        fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(new Topic("t", -1, -1,
                List.of(new PartitionAssignment(0, List.of(0, 1, 2))), List.of())), false)));
        fixture.nowMs += 5_000;
        heartbeat(1, fixture.image().cluster().broker(1).epoch(), fixture.nextOffset());
        heartbeat(2, fixture.image().cluster().broker(2).epoch(), fixture.nextOffset());
        assertTrue(fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)).isEmpty(), "not expired yet");
        assertEquals(1_000 + ControllerFixture.SESSION_TIMEOUT_MS, fixture.cluster.nextSessionExpiryMs());
        fixture.nowMs = 1_000 + ControllerFixture.SESSION_TIMEOUT_MS;
        assertEquals(List.of(0), fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)));
        assertEquals(6_000 + ControllerFixture.SESSION_TIMEOUT_MS, fixture.cluster.nextSessionExpiryMs(),
                "the fenced broker's session ended: the next expiry is a live broker's, not one already past");

        PartitionRegistration p = partition("t", 0);
        assertTrue(fixture.image().cluster().broker(0).fenced());
        assertEquals(1, p.leader(), "the next replica in replica order that is in the ISR");
        assertEquals("[1, 2]", Arrays.toString(p.isr()));
        assertEquals(1, p.leaderEpoch());
        assertEquals(1, p.partitionEpoch());
    }

    @Test
    void withNoLiveReplicaThePartitionIsOfflineAndItsLastReplicaStaysInTheIsr() {
        fixture.addBrokers(1);
        fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(Topic.of("solo", 1, 1)), false)));
        fixture.nowMs += ControllerFixture.SESSION_TIMEOUT_MS;
        fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs));
        PartitionRegistration p = partition("solo", 0);
        assertEquals(PartitionRegistration.NO_LEADER, p.leader());
        assertEquals("[0]", Arrays.toString(p.isr()));
        assertEquals(1, p.leaderEpoch());

        heartbeat(0, fixture.image().cluster().broker(0).epoch(), fixture.nextOffset());
        assertEquals(0, partition("solo", 0).leader(), "the last ISR member leads again when it is back");
        assertEquals(2, partition("solo", 0).leaderEpoch());
    }

    @Test
    void aBrokerBackFromFencingRejoinsTheIsrAndTakesBackPreferredLeadership() {
        fixture.addBrokers(3);
        fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(new Topic("t", -1, -1,
                List.of(new PartitionAssignment(0, List.of(0, 1, 2)), new PartitionAssignment(1, List.of(1, 0, 2))),
                List.of())), false)));
        long epoch0 = fixture.image().cluster().broker(0).epoch();
        fixture.apply(fixture.cluster.heartbeat(new HeartbeatRequest(0, epoch0, fixture.nextOffset(), true, false),
                fixture.nowMs));
        assertTrue(fixture.image().cluster().broker(0).fenced(), "wantFence fences");
        assertEquals(1, partition("t", 0).leader());
        assertEquals("[1, 0, 2]", Arrays.toString(partition("t", 1).replicas()));
        assertEquals("[1, 2]", Arrays.toString(partition("t", 1).isr()));

        heartbeat(0, epoch0, fixture.nextOffset());
        assertFalse(fixture.image().cluster().broker(0).fenced());
        assertEquals(0, partition("t", 0).leader(), "the preferred leader is restored");
        assertEquals("[0, 1, 2]", Arrays.toString(partition("t", 0).isr()));
        assertEquals(2, partition("t", 0).leaderEpoch());
        assertEquals(1, partition("t", 1).leader(), "a partition it does not prefer keeps its leader");
        assertEquals("[1, 0, 2]", Arrays.toString(partition("t", 1).isr()), "ISR in replica order");
        assertEquals(0, partition("t", 1).leaderEpoch());
    }

    @Test
    void aNewActiveControllerGivesEveryBrokerAFreshSession() {
        fixture.addBrokers(2);
        fixture.nowMs += ControllerFixture.SESSION_TIMEOUT_MS - 1;
        fixture.cluster.onBecomeActive(fixture.nowMs);
        fixture.nowMs += 2;
        assertTrue(fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)).isEmpty());
    }
}
