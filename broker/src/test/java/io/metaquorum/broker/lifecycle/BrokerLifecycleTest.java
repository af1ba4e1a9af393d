package io.metaquorum.broker.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerLifecycleTest {
    private static final long HEARTBEAT_MS = 2_000;
    private static final Uuid INCARNATION = Uuid.newBuilder().setMostSignificantBits(7).setLeastSignificantBits(9)
            .build();
    private static final BrokerEndpoint ENDPOINT = BrokerEndpoint.newBuilder().setName("PLAINTEXT")
            .setHost("127.0.0.1").setPort(9094).build();

    private final BrokerLifecycle lifecycle = new BrokerLifecycle("[node 4] ", "cluster", 4, INCARNATION,
            List.of(ENDPOINT), "rack-a", new LifecycleTimings(HEARTBEAT_MS, 100, 800));

    private BrokerRegistrationRequest expectRegister(long nowMs) {
        Optional<LifecycleCall> call = lifecycle.poll(nowMs, -1);
        assertTrue(call.isPresent() && call.get() instanceof LifecycleCall.Register, "register due: " + call);
        return ((LifecycleCall.Register) call.get()).request();
    }

    private BrokerHeartbeatRequest expectHeartbeat(long nowMs, long offset) {
        Optional<LifecycleCall> call = lifecycle.poll(nowMs, offset);
        assertTrue(call.isPresent() && call.get() instanceof LifecycleCall.Heartbeat, "heartbeat due: " + call);
        return ((LifecycleCall.Heartbeat) call.get()).request();
    }

    private static BrokerRegistrationResponse registered(long epoch) {
        return BrokerRegistrationResponse.newBuilder().setBrokerEpoch(epoch).build();
    }

    private static BrokerHeartbeatResponse heartbeatAnswer(boolean caughtUp, boolean fenced, boolean shutDown) {
        return BrokerHeartbeatResponse.newBuilder().setIsCaughtUp(caughtUp).setIsFenced(fenced)
                .setShouldShutDown(shutDown).build();
    }

    private void runningAtEpoch(long epoch) {
        expectRegister(0);
        lifecycle.onRegistration(registered(epoch), 0);
        expectHeartbeat(0, epoch);
        lifecycle.onHeartbeat(heartbeatAnswer(true, false, false), 1);
        assertEquals(BrokerState.RUNNING, lifecycle.state());
    }

    @Test
    void registersWithItsIdentityThenHeartbeatsAtOnce() {
        BrokerRegistrationRequest request = expectRegister(0);
        assertEquals(4, request.getBrokerId());
        assertEquals(INCARNATION, request.getIncarnationId());
        assertEquals("rack-a", request.getRack());
        assertEquals("cluster", request.getClusterId());
        assertEquals(List.of(ENDPOINT), request.getListenersList());
        assertTrue(lifecycle.poll(0, -1).isEmpty(), "one call in flight at a time");
        lifecycle.onRegistration(registered(42), 5);
        assertEquals(BrokerState.RECOVERY, lifecycle.state());
        BrokerHeartbeatRequest heartbeat = expectHeartbeat(5, 10);
        assertEquals(42, heartbeat.getBrokerEpoch());
        assertEquals(10, heartbeat.getCurrentMetadataOffset());
        assertFalse(heartbeat.getWantShutDown());
    }

    @Test
    void aFencedBrokerHeartbeatsAsSoonAsItsReplayReachesItsRegistration() {
        expectRegister(0);
        lifecycle.onRegistration(registered(42), 0);
        expectHeartbeat(0, 10);
        lifecycle.onHeartbeat(heartbeatAnswer(false, true, false), 1);
        assertTrue(lifecycle.poll(500, 41).isEmpty(), "not caught up: waits for the interval");
        assertEquals(1 + HEARTBEAT_MS, lifecycle.nextDeadlineMs(41));
        assertEquals(Long.MIN_VALUE, lifecycle.nextDeadlineMs(42), "caught up: due at once");
        expectHeartbeat(600, 42);
        lifecycle.onHeartbeat(heartbeatAnswer(true, false, false), 610);
        assertEquals(BrokerState.RUNNING, lifecycle.state());
        assertEquals(610 + HEARTBEAT_MS, lifecycle.nextDeadlineMs(50), "then every interval");
        assertTrue(lifecycle.poll(610 + HEARTBEAT_MS - 1, 50).isEmpty());
        expectHeartbeat(610 + HEARTBEAT_MS, 50);
    }

    @Test
    void aStaleEpochRegistersAgainAndKeepsTheIncarnation() {
        runningAtEpoch(42);
        expectHeartbeat(HEARTBEAT_MS + 1, 60);
        lifecycle.onHeartbeat(BrokerHeartbeatResponse.newBuilder().setErrorCode(ErrorCode.STALE_BROKER_EPOCH)
                .build(), HEARTBEAT_MS + 2);
        assertEquals(BrokerState.REGISTERING, lifecycle.state());
        assertEquals(-1, lifecycle.brokerEpoch());
        assertEquals(INCARNATION, expectRegister(HEARTBEAT_MS + 2).getIncarnationId());
    }

    @Test
    void aRunningBrokerTheControllerFencedRecoversAgain() {
        runningAtEpoch(42);
        expectHeartbeat(HEARTBEAT_MS + 1, 60);
        lifecycle.onHeartbeat(heartbeatAnswer(true, true, false), HEARTBEAT_MS + 2);
        assertEquals(BrokerState.RECOVERY, lifecycle.state());
    }

    @Test
    void refusalsAndFailuresBackOffDoublingUpToTheMax() {
        expectRegister(0);
        lifecycle.onRegistration(BrokerRegistrationResponse.newBuilder()
                .setErrorCode(ErrorCode.DUPLICATE_BROKER_REGISTRATION).build(), 0);
        assertEquals(100, lifecycle.nextDeadlineMs(-1));
        expectRegister(100);
        lifecycle.onCallFailed("UNAVAILABLE", 100);
        assertEquals(300, lifecycle.nextDeadlineMs(-1));
        expectRegister(300);
        lifecycle.onCallFailed("UNAVAILABLE", 300);
        assertEquals(700, lifecycle.nextDeadlineMs(-1));
        for (long now = 700, i = 0; i < 5; i++) {
            expectRegister(now);
            lifecycle.onCallFailed("DEADLINE_EXCEEDED", now);
            assertTrue(lifecycle.nextDeadlineMs(-1) - now <= 800, "capped at the max");
            now = lifecycle.nextDeadlineMs(-1);
        }
        expectRegister(lifecycle.nextDeadlineMs(-1));
        lifecycle.onRegistration(registered(3), 10_000);
        assertEquals(BrokerState.RECOVERY, lifecycle.state());
    }

    @Test
    void aFatalRefusalStopsTheBroker() {
        expectRegister(0);
        lifecycle.onRegistration(BrokerRegistrationResponse.newBuilder()
                .setErrorCode(ErrorCode.INCONSISTENT_CLUSTER_ID).setErrorMessage("other cluster").build(), 0);
        assertTrue(lifecycle.fatalError().orElseThrow().contains("INCONSISTENT_CLUSTER_ID"));
        assertTrue(lifecycle.poll(10_000, 0).isEmpty());
        assertEquals(Long.MAX_VALUE, lifecycle.nextDeadlineMs(0));
    }

    @Test
    void controlledShutdownWaitsForTheControllerToReleaseTheBroker() {
        runningAtEpoch(42);
        lifecycle.beginControlledShutdown(10);
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, lifecycle.state());
        assertTrue(expectHeartbeat(10, 60).getWantShutDown(), "asked at once, not at the next interval");
        lifecycle.onHeartbeat(heartbeatAnswer(true, true, false), 11);
        assertEquals(BrokerState.PENDING_CONTROLLED_SHUTDOWN, lifecycle.state());
        assertTrue(expectHeartbeat(11 + HEARTBEAT_MS, 61).getWantShutDown());
        lifecycle.onHeartbeat(heartbeatAnswer(true, true, true), 12 + HEARTBEAT_MS);
        assertEquals(BrokerState.SHUT_DOWN, lifecycle.state());
        assertTrue(lifecycle.poll(100_000, 70).isEmpty());
    }

    @Test
    void aBrokerThatLeadsNothingYetShutsDownAtOnce() {
        expectRegister(0);
        lifecycle.onRegistration(registered(42), 0);
        lifecycle.beginControlledShutdown(1);
        assertEquals(BrokerState.SHUT_DOWN, lifecycle.state());
    }

    @Test
    void anAnswerWithoutACallInFlightIsABug() {
        assertThrows(InvariantViolation.class, () -> lifecycle.onRegistration(registered(1), 0));
    }
}
