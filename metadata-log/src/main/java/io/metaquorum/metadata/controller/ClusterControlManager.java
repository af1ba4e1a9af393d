package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.Uuid;
import java.util.ArrayList;
import java.util.List;

/**
 * Broker registration, heartbeats and fencing (Kafka's {@code ClusterControlManager} and
 * {@code BrokerHeartbeatManager}). A registration starts fenced; a heartbeat from a broker
 * that has caught up to its registration unfences it; a broker not heard from for the
 * session timeout is fenced, and its leaderships move (ReplicationControlManager decides
 * the partition changes, appended in the same result).
 *
 * <p>Metadata changes only through the returned records. The sessions are soft state of
 * the active controller ({@link BrokerSessions}); time is an input ({@code nowMs}).
 */
public final class ClusterControlManager {
    private final ControllerState state;
    private final ReplicationControlManager replication;
    private final BrokerSessions sessions;

    public ClusterControlManager(ControllerState state, ReplicationControlManager replication, long sessionTimeoutMs) {
        this.state = state;
        this.replication = replication;
        this.sessions = new BrokerSessions(sessionTimeoutMs);
    }

    public record RegisterBrokerRequest(int brokerId, Uuid incarnationId, List<BrokerEndpoint> endpoints, String rack) {
        public RegisterBrokerRequest {
            endpoints = List.copyOf(endpoints);
        }
    }

    public record RegisterBrokerResponse(ApiError error, long brokerEpoch) {
    }

    public record HeartbeatRequest(int brokerId, long brokerEpoch, long currentMetadataOffset, boolean wantFence,
                                   boolean wantShutDown) {
    }

    public record HeartbeatResponse(ApiError error, boolean isCaughtUp, boolean isFenced, boolean shouldShutDown) {
        static HeartbeatResponse failed(ApiError error) {
            return new HeartbeatResponse(error, false, true, false);
        }
    }

    /**
     * RegisterBroker. {@code nextOffset} is where the registration record will be appended:
     * it becomes the broker epoch. The same id with another incarnation is refused while the
     * old registration is unfenced and its session lives; after that (or with the same
     * incarnation) it replaces the old one. A fenced registration holds no session, as in Kafka:
     * a broker that finished its controlled shutdown, or never got unfenced, does not keep its
     * restarted successor waiting out the session timeout.
     */
    public ControllerResult<RegisterBrokerResponse> registerBroker(RegisterBrokerRequest request, long nextOffset,
                                                                   long nowMs) {
        MetadataImage image = state.image();
        BrokerRegistration old = image.cluster().broker(request.brokerId());
        if (request.brokerId() < 0) {
            return ControllerResult.withoutRecords(new RegisterBrokerResponse(ApiError.of(ErrorCode.INVALID_REQUEST,
                    "Broker id " + request.brokerId() + " is negative."), -1));
        }
        if (old != null && !old.fenced() && !old.incarnationId().equals(request.incarnationId())
                && sessions.alive(request.brokerId(), nowMs)) {
            return ControllerResult.withoutRecords(new RegisterBrokerResponse(ApiError.of(
                    ErrorCode.DUPLICATE_BROKER_REGISTRATION, "Broker " + request.brokerId() + " is registered by "
                    + "another incarnation whose session is still alive."), -1));
        }
        Invariants.check(old == null || nextOffset > old.epoch(), "broker %d: registration offset %d does not follow "
                + "its epoch %d: the caller must pass the offset the record will be appended at", request.brokerId(),
                nextOffset, old == null ? -1 : old.epoch());
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                .setBrokerId(request.brokerId()).setIncarnationId(request.incarnationId()).setBrokerEpoch(nextOffset)
                .addAllEndpoints(request.endpoints()).setRack(request.rack()).setFenced(true)).build());
        if (old != null && !old.fenced()) {
            records.addAll(replication.partitionChangesAfterFence(after(image, records), request.brokerId()));
        }
        sessions.touch(request.brokerId(), nowMs);
        // The registration record comes first, so the broker epoch is still its offset.
        return ControllerResult.nonAtomic(records, new RegisterBrokerResponse(ApiError.NONE, nextOffset));
    }

    /** BrokerHeartbeat: keeps the session, unfences a caught-up broker, fences one that asks. */
    public ControllerResult<HeartbeatResponse> heartbeat(HeartbeatRequest request, long nowMs) {
        MetadataImage image = state.image();
        BrokerRegistration broker = image.cluster().broker(request.brokerId());
        if (broker == null) {
            return ControllerResult.withoutRecords(HeartbeatResponse.failed(ApiError.of(
                    ErrorCode.BROKER_ID_NOT_REGISTERED, "Broker " + request.brokerId() + " is not registered.")));
        }
        if (broker.epoch() != request.brokerEpoch()) {
            return ControllerResult.withoutRecords(HeartbeatResponse.failed(ApiError.of(ErrorCode.STALE_BROKER_EPOCH,
                    "Broker " + broker.id() + " is registered with epoch " + broker.epoch() + "; the heartbeat carried "
                            + request.brokerEpoch() + ".")));
        }
        sessions.touch(request.brokerId(), nowMs);
        boolean caughtUp = request.currentMetadataOffset() >= broker.epoch();
        boolean leaving = request.wantFence() || request.wantShutDown();
        List<MetadataRecord> records = new ArrayList<>();
        if (broker.fenced() && caughtUp && !leaving) {
            records.add(MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder()
                    .setBrokerId(broker.id()).setBrokerEpoch(broker.epoch())).build());
            records.addAll(replication.partitionChangesAfterUnfence(after(image, records), broker.id()));
        } else if (!broker.fenced() && leaving) {
            records.addAll(fence(image, broker));
        }
        boolean fencedAfter = records.isEmpty() ? broker.fenced() : leaving;
        return ControllerResult.nonAtomic(records, new HeartbeatResponse(ApiError.NONE, caughtUp, fencedAfter,
                request.wantShutDown()));
    }

    /**
     * Fences the broker whose session expired first, if any, and ends its session (a fenced
     * broker is not waited for; its next heartbeat starts a new one). One broker per call, as
     * Kafka's {@code maybeFenceOneStaleBroker}: a controller that was too busy to read heartbeats
     * runs the queued ones between two fencings instead of fencing every broker at once, and
     * each fencing rewrites the leadership of every partition the broker led. The response
     * lists the broker fenced (none or one).
     */
    public ControllerResult<List<Integer>> fenceOneExpiredBroker(long nowMs) {
        MetadataImage image = state.image();
        for (int id = sessions.firstExpired(nowMs); id >= 0; id = sessions.firstExpired(nowMs)) {
            sessions.remove(id);
            BrokerRegistration broker = image.cluster().broker(id);
            if (broker != null && !broker.fenced()) {
                return ControllerResult.nonAtomic(fence(image, broker), List.of(id));
            }
        }
        return ControllerResult.nonAtomic(List.of(), List.of());
    }

    /**
     * What a new active controller finishes of fencings a predecessor appended only in part
     * (non-atomic results can be cut between batches by a failover): the partition changes
     * still due for every fenced broker.
     */
    public ControllerResult<Void> unfinishedFencing() {
        MetadataImage image = state.image();
        List<MetadataRecord> records = new ArrayList<>();
        for (BrokerRegistration broker : image.cluster().sortedById()) {
            if (broker.fenced()) {
                List<MetadataRecord> changes = replication.partitionChangesAfterFence(image, broker.id());
                image = after(image, changes);
                records.addAll(changes);
            }
        }
        return ControllerResult.nonAtomic(records, null);
    }

    /** The earliest time a session can expire (absolute ms), Long.MAX_VALUE when none. */
    public long nextSessionExpiryMs() {
        return sessions.nextExpiryMs();
    }

    /** On becoming the active controller: every registered broker starts a fresh session. */
    public void onBecomeActive(long nowMs) {
        List<Integer> ids = new ArrayList<>();
        state.image().cluster().sortedById().forEach(b -> ids.add(b.id()));
        sessions.resetAll(ids, nowMs);
    }

    private List<MetadataRecord> fence(MetadataImage image, BrokerRegistration broker) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder()
                .setBrokerId(broker.id()).setBrokerEpoch(broker.epoch())).build());
        records.addAll(replication.partitionChangesAfterFence(after(image, records), broker.id()));
        return records;
    }

    /** {@code image} with {@code records} replayed on top, as they will be once appended. */
    private static MetadataImage after(MetadataImage image, List<MetadataRecord> records) {
        MetadataDelta delta = new MetadataDelta(image);
        long offset = image.lastCommittedOffset();
        for (MetadataRecord record : records) {
            delta.replay(record, ++offset, image.lastCommittedEpoch());
        }
        return delta.apply();
    }
}
