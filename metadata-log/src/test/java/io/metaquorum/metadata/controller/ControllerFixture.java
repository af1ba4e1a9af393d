package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.controller.ClusterControlManager.HeartbeatRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerRequest;
import io.metaquorum.metadata.controller.ClusterControlManager.RegisterBrokerResponse;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The managers over one ControllerState, with an in-memory "log": {@link #apply} appends a
 * result's records at the next offsets and replays them, as the controller does for an
 * atomic append.
 */
final class ControllerFixture {
    static final long SESSION_TIMEOUT_MS = 9_000;

    final ControllerState state = new ControllerState(MetadataImage.EMPTY);
    final List<MetadataRecord> log = new ArrayList<>();
    final ReplicationControlManager replication;
    final ClusterControlManager cluster;
    final ConfigurationControlManager configs;
    final FeatureControlManager features;
    final AclControlManager acls;
    final ScramControlManager scram;
    final int epoch = 1;
    long nowMs = 1_000;

    ControllerFixture() {
        this(CreateTopicPolicy.NONE, 42);
    }

    ControllerFixture(CreateTopicPolicy policy, long seed) {
        replication = new ReplicationControlManager(state, ReplicationDefaults.KAFKA, policy, new SplittableRandom(seed));
        cluster = new ClusterControlManager(state, replication, SESSION_TIMEOUT_MS);
        configs = new ConfigurationControlManager(state);
        acls = new AclControlManager(state);
        scram = new ScramControlManager(state);
        features = new FeatureControlManager(state, Map.of("metadata.version", new FeatureControlManager.SupportedRange(1, 3)));
    }

    long nextOffset() {
        return log.size();
    }

    <T> T apply(ControllerResult<T> result) {
        state.replay(result.records(), nextOffset(), epoch);
        log.addAll(result.records());
        return result.response();
    }

    MetadataImage image() {
        return state.image();
    }

    /** Registers {@code id} in {@code rack} and heartbeats it unfenced; returns its epoch. */
    long addBroker(int id, String rack) {
        RegisterBrokerResponse registered = apply(cluster.registerBroker(registration(id, id, rack), nextOffset(),
                nowMs));
        assertEquals(ApiError.NONE, registered.error());
        apply(cluster.heartbeat(new HeartbeatRequest(id, registered.brokerEpoch(), nextOffset(), false, false), nowMs));
        return registered.brokerEpoch();
    }

    void addBrokers(int count) {
        for (int id = 0; id < count; id++) {
            addBroker(id, "");
        }
    }

    static RegisterBrokerRequest registration(int id, long incarnation, String rack) {
        return new RegisterBrokerRequest(id, TopicIds.uuid(7, incarnation),
                List.of(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost").setPort(9092 + id).build()),
                rack);
    }
}
