package io.metaquorum.broker.lifecycle;

import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's life with the controllers, as one deterministic state machine (Kafka's
 * {@code BrokerLifecycleManager}; states and transitions in {@link BrokerState}). It decides
 * which call goes out next and when; a driver sends it and reports the answer or the failure.
 * Time is an input; nothing here reads a clock, sleeps or does I/O.
 *
 * <p>Rules: one call in flight at a time. A registration is retried with a doubling backoff
 * (DUPLICATE_BROKER_REGISTRATION included: the previous incarnation's session must run out
 * first). Once registered it heartbeats every {@code heartbeatIntervalMs}, and at once when
 * its replayed offset first reaches its registration, so it is unfenced as soon as it may be.
 * A heartbeat refused as STALE_BROKER_EPOCH or BROKER_ID_NOT_REGISTERED registers again.
 * A FATAL answer (another cluster) stops the broker: {@link #fatalError()}.
 *
 * <p>Invariant: {@code brokerEpoch >= 0} exactly when the state is past REGISTERING.
 */
public final class BrokerLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLifecycle.class);

    private final String logPrefix;
    private final String clusterId;
    private final int brokerId;
    private final Uuid incarnationId;
    private final List<BrokerEndpoint> endpoints;
    private final String rack;
    private final LifecycleTimings timings;

    private BrokerState state = BrokerState.REGISTERING;
    private long brokerEpoch = -1;
    private boolean inFlight;
    private long nextCallMs;
    private int failuresInRow;
    /** The highest metadata offset a heartbeat has reported; -1 before the first. */
    private long reportedOffset = -1;
    private String fatalError;

    public BrokerLifecycle(String logPrefix, String clusterId, int brokerId, Uuid incarnationId,
                           List<BrokerEndpoint> endpoints, String rack, LifecycleTimings timings) {
        this.logPrefix = logPrefix;
        this.clusterId = clusterId;
        this.brokerId = brokerId;
        this.incarnationId = incarnationId;
        this.endpoints = List.copyOf(endpoints);
        this.rack = rack;
        this.timings = timings;
    }

    public BrokerState state() {
        return state;
    }

    /** The epoch of the current registration, -1 while registering. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    /** Why the broker must stop, once a FATAL answer came. */
    public Optional<String> fatalError() {
        return Optional.ofNullable(fatalError);
    }

    /**
     * The call to send now, if one is due at {@code nowMs}; {@code metadataOffset} is the
     * last committed offset the broker has replayed (-1 for none). The caller must report
     * its outcome before the next call is handed out.
     */
    public Optional<LifecycleCall> poll(long nowMs, long metadataOffset) {
        if (inFlight || fatalError != null || state == BrokerState.SHUT_DOWN || nowMs < dueMs(metadataOffset)) {
            return Optional.empty();
        }
        inFlight = true;
        if (state == BrokerState.REGISTERING) {
            return Optional.of(new LifecycleCall.Register(BrokerRegistrationRequest.newBuilder()
                    .setClusterId(clusterId).setBrokerId(brokerId).setIncarnationId(incarnationId)
                    .addAllListeners(endpoints).setRack(rack).build()));
        }
        reportedOffset = Math.max(reportedOffset, metadataOffset);
        return Optional.of(new LifecycleCall.Heartbeat(BrokerHeartbeatRequest.newBuilder().setBrokerId(brokerId)
                .setBrokerEpoch(brokerEpoch).setCurrentMetadataOffset(metadataOffset)
                .setWantShutDown(state == BrokerState.PENDING_CONTROLLED_SHUTDOWN).build()));
    }

    /**
     * When the next call is due (absolute ms; Long.MAX_VALUE when none will be), given the
     * replayed {@code metadataOffset}: the driver sleeps until then or until the offset moves.
     */
    public long nextDeadlineMs(long metadataOffset) {
        if (inFlight || fatalError != null || state == BrokerState.SHUT_DOWN) {
            return Long.MAX_VALUE;
        }
        return dueMs(metadataOffset);
    }

    private long dueMs(long metadataOffset) {
        boolean justCaughtUp = state == BrokerState.RECOVERY && metadataOffset >= brokerEpoch
                && reportedOffset < brokerEpoch && failuresInRow == 0;
        return justCaughtUp ? Long.MIN_VALUE : nextCallMs;
    }

    public void onRegistration(BrokerRegistrationResponse response, long nowMs) {
        endCall();
        if (response.getErrorCode() != ErrorCode.NONE) {
            refused("registration", response.getErrorCode(), response.getErrorMessage(), nowMs);
            return;
        }
        Invariants.check(response.getBrokerEpoch() >= 0, "broker %d registered with epoch %d", brokerId,
                response.getBrokerEpoch());
        failuresInRow = 0;
        brokerEpoch = response.getBrokerEpoch();
        reportedOffset = -1;
        transitionTo(state == BrokerState.PENDING_CONTROLLED_SHUTDOWN ? state : BrokerState.RECOVERY,
                "registered with broker epoch " + brokerEpoch);
        nextCallMs = nowMs;
    }

    public void onHeartbeat(BrokerHeartbeatResponse response, long nowMs) {
        endCall();
        ErrorCode code = response.getErrorCode();
        if (code == ErrorCode.STALE_BROKER_EPOCH || code == ErrorCode.BROKER_ID_NOT_REGISTERED) {
            failuresInRow = 0;
            brokerEpoch = -1;
            nextCallMs = nowMs;
            transitionTo(state == BrokerState.PENDING_CONTROLLED_SHUTDOWN ? BrokerState.SHUT_DOWN
                    : BrokerState.REGISTERING, "heartbeat refused: " + code + ": " + response.getErrorMessage());
            return;
        }
        if (code != ErrorCode.NONE) {
            refused("heartbeat", code, response.getErrorMessage(), nowMs);
            return;
        }
        failuresInRow = 0;
        nextCallMs = nowMs + timings.heartbeatIntervalMs();
        if (state == BrokerState.PENDING_CONTROLLED_SHUTDOWN) {
            if (response.getShouldShutDown()) {
                transitionTo(BrokerState.SHUT_DOWN, "the controller moved every leadership away");
            }
        } else if (state == BrokerState.RECOVERY && !response.getIsFenced()) {
            transitionTo(BrokerState.RUNNING, "unfenced at broker epoch " + brokerEpoch);
        } else if (state == BrokerState.RUNNING && response.getIsFenced()) {
            transitionTo(BrokerState.RECOVERY, "the controller fenced this broker (its session had expired)");
        }
    }

    /** The call could not be made or got no answer (transport failure, deadline). */
    public void onCallFailed(String reason, long nowMs) {
        endCall();
        failuresInRow++;
        long waitMs = timings.backoffMs(failuresInRow);
        nextCallMs = nowMs + waitMs;
        if (failuresInRow == 1 || failuresInRow % 10 == 0) {
            LOG.info("{}broker {}: no answer from the controllers ({}), {} failures in a row; retrying in {} ms",
                    logPrefix, state, reason, failuresInRow, waitMs);
        }
    }

    /**
     * SIGTERM: a running broker asks the controller to move its leaderships away first; one
     * that leads nothing yet is done at once.
     */
    public void beginControlledShutdown(long nowMs) {
        switch (state) {
            case RUNNING -> {
                transitionTo(BrokerState.PENDING_CONTROLLED_SHUTDOWN, "controlled shutdown requested");
                nextCallMs = nowMs;
            }
            case REGISTERING, RECOVERY -> transitionTo(BrokerState.SHUT_DOWN, "shut down before it was unfenced");
            case PENDING_CONTROLLED_SHUTDOWN, SHUT_DOWN -> {
                // Already on its way out.
            }
        }
    }

    private void refused(String what, ErrorCode code, String message, long nowMs) {
        ErrorClass handling = ErrorHandling.of(code);
        if (handling == ErrorClass.FATAL) {
            fatalError = what + " refused: " + code + ": " + message;
            LOG.error("{}broker {}: {}; stopping", logPrefix, state, fatalError);
            return;
        }
        failuresInRow++;
        long waitMs = timings.backoffMs(failuresInRow);
        nextCallMs = nowMs + waitMs;
        LOG.info("{}broker {}: {} refused: {}: {}; retrying in {} ms", logPrefix, state, what, code, message, waitMs);
    }

    private void endCall() {
        Invariants.check(inFlight, "broker %d: an answer arrived with no call in flight", brokerId);
        inFlight = false;
    }

    private void transitionTo(BrokerState next, String why) {
        if (next != state) {
            LOG.info("{}broker state {} -> {}: {}", logPrefix, state, next, why);
            state = next;
        }
    }
}
