package io.metaquorum.broker.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.broker.lifecycle.LifecycleTimings;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleSessionTest {
    private static final long TIMEOUT_MS = 1_000;
    private long nowMs;
    private final BrokerLifecycle lifecycle = new BrokerLifecycle("[node 4] ", "cluster", 4,
            Uuid.newBuilder().setMostSignificantBits(4).build(), List.of(), "", new LifecycleTimings(500, 100, 1_000));
    private final RecordingTransport transport = new RecordingTransport();
    private final LifecycleSession session = new LifecycleSession(lifecycle, transport, List.of(3, 1, 2), TIMEOUT_MS,
            () -> nowMs);

    private RecordingTransport.Sent sendDue() {
        int before = transport.sent.size();
        lifecycle.poll(nowMs, -1).ifPresent(call -> session.send(call, nowMs));
        assertEquals(before + 1, transport.sent.size(), "a call went out at " + nowMs);
        return transport.last();
    }

    private static BrokerRegistrationResponse registered(long epoch, int controllerId) {
        return BrokerRegistrationResponse.newBuilder().setBrokerEpoch(epoch).setControllerId(controllerId).build();
    }

    @Test
    void theFirstCallGoesToTheLowestControllerAndAnAnswerNamesTheNextTarget() {
        RecordingTransport.Sent call = sendDue();
        assertEquals(1, call.controllerId());
        assertEquals(TIMEOUT_MS, session.deadlineMs());
        call.callback().onRegistration(registered(7, 3));
        assertEquals(Long.MAX_VALUE, session.deadlineMs(), "the call ended");
        assertEquals(3, session.target(), "follows the controller the answer named");
        assertEquals(BrokerState.RECOVERY, lifecycle.state());
        RecordingTransport.Sent heartbeat = sendDue();
        assertEquals(3, heartbeat.controllerId());
        heartbeat.callback().onHeartbeat(BrokerHeartbeatResponse.newBuilder().setControllerId(9)
                .setIsFenced(true).build());
        assertEquals(3, session.target(), "an id that is not a controller is not followed");
    }

    @Test
    void aFailureRotatesToTheNextControllerInIdOrderAndWraps() {
        sendDue().callback().onFailure("UNAVAILABLE");
        assertEquals(2, session.target());
        nowMs = 100;
        sendDue().callback().onFailure("UNAVAILABLE");
        assertEquals(3, session.target());
        nowMs = 300;
        RecordingTransport.Sent third = sendDue();
        assertEquals(3, third.controllerId());
        third.callback().onFailure("UNAVAILABLE");
        assertEquals(1, session.target(), "wraps around");
    }

    @Test
    void theDeadlineFailsTheCallAndItsLateAnswerIsDropped() {
        RecordingTransport.Sent call = sendDue();
        nowMs = TIMEOUT_MS - 1;
        session.expire(nowMs);
        assertEquals(TIMEOUT_MS, session.deadlineMs(), "not yet");
        nowMs = TIMEOUT_MS;
        session.expire(nowMs);
        assertEquals(Long.MAX_VALUE, session.deadlineMs());
        assertEquals(2, session.target(), "a timed-out controller is rotated away from");
        assertEquals(TIMEOUT_MS + 100, lifecycle.nextDeadlineMs(-1), "the lifecycle backs off");
        // Delivered, the answer would end a call the lifecycle no longer has in flight (an invariant).
        call.callback().onRegistration(registered(7, 1));
        call.callback().onFailure("DEADLINE_EXCEEDED");
        assertEquals(BrokerState.REGISTERING, lifecycle.state());
        assertEquals(2, session.target());
    }

    @Test
    void anAnswerForAnEarlierCallIsDroppedWhileANewerOneIsInFlight() {
        RecordingTransport.Sent first = sendDue();
        first.callback().onFailure("UNAVAILABLE");
        nowMs = 100;
        RecordingTransport.Sent second = sendDue();
        first.callback().onRegistration(registered(7, 1));
        assertEquals(BrokerState.REGISTERING, lifecycle.state(), "the first call's answer came too late");
        assertEquals(100 + TIMEOUT_MS, session.deadlineMs(), "the second call is still in flight");
        second.callback().onRegistration(BrokerRegistrationResponse.newBuilder()
                .setErrorCode(ErrorCode.NOT_CONTROLLER).setControllerId(3).build());
        assertEquals(3, session.target(), "a refusal that names the active controller is followed too");
        nowMs = 400;
        assertInstanceOf(LifecycleCall.Register.class, sendDue().call());
        assertEquals(3, transport.last().controllerId());
    }
}
