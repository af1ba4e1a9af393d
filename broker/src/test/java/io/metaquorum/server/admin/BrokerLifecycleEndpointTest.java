package io.metaquorum.server.admin;

import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.ControlledShutdownResponse;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.TopicRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RegisterBroker, BrokerHeartbeat and ControlledShutdown through gRPC. */
class BrokerLifecycleEndpointTest {
    private AdminTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new AdminTestNode(1);
        node.gateway.becomeActive();
        node.serve(Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private DescribedBroker broker(int id) {
        return node.admin().describeCluster(DescribeClusterRequest.getDefaultInstance()).getBrokersList().stream()
                .filter(b -> b.getBrokerId() == id).findFirst().orElseThrow();
    }

    @Test
    void registeredBrokerIsFencedUntilItsHeartbeatShowsItCaughtUp() {
        BrokerRegistrationResponse registered = node.lifecycle().registerBroker(AdminTestNode.registration(1));
        assertEquals(ErrorCode.NONE, registered.getErrorCode(), registered.getErrorMessage());
        assertEquals(1, registered.getControllerId());
        assertTrue(broker(1).getFenced());
        assertEquals(registered.getBrokerEpoch(), broker(1).getBrokerEpoch());

        BrokerHeartbeatRequest.Builder beat = BrokerHeartbeatRequest.newBuilder().setBrokerId(1)
                .setBrokerEpoch(registered.getBrokerEpoch());
        BrokerHeartbeatResponse behind = node.lifecycle().brokerHeartbeat(
                beat.setCurrentMetadataOffset(registered.getBrokerEpoch() - 1).build());
        assertEquals(ErrorCode.NONE, behind.getErrorCode());
        assertFalse(behind.getIsCaughtUp());
        assertTrue(behind.getIsFenced());

        BrokerHeartbeatResponse caughtUp = node.lifecycle().brokerHeartbeat(
                beat.setCurrentMetadataOffset(registered.getBrokerEpoch()).build());
        assertTrue(caughtUp.getIsCaughtUp());
        assertFalse(caughtUp.getIsFenced());
        assertFalse(broker(1).getFenced());

        BrokerHeartbeatResponse stale = node.lifecycle().brokerHeartbeat(
                beat.setBrokerEpoch(registered.getBrokerEpoch() + 100).build());
        assertEquals(ErrorCode.STALE_BROKER_EPOCH, stale.getErrorCode());
    }

    @Test
    void controlledShutdownMovesLeadershipsAway() {
        long epoch1 = node.registerUnfenced(1);
        node.registerUnfenced(2);
        node.admin().createTopics(CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder()
                .setName("t").setNumPartitions(4).setReplicationFactor(2)).setTimeoutMs(5_000).build());

        ControlledShutdownResponse shutdown = node.lifecycle().controlledShutdown(ControlledShutdownRequest
                .newBuilder().setBrokerId(1).setBrokerEpoch(epoch1).build());
        assertEquals(ErrorCode.NONE, shutdown.getErrorCode(), shutdown.getErrorMessage());
        assertEquals(0, shutdown.getRemainingLeaderships());
        assertTrue(broker(1).getFenced());
        for (DescribedPartition p : node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setName("t")).build()).getTopics(0).getPartitionsList()) {
            assertEquals(2, p.getLeaderId());
            assertEquals(List.of(1), p.getOfflineReplicasList());
        }

        ControlledShutdownResponse stale = node.lifecycle().controlledShutdown(ControlledShutdownRequest
                .newBuilder().setBrokerId(1).setBrokerEpoch(epoch1 + 100).build());
        assertEquals(ErrorCode.STALE_BROKER_EPOCH, stale.getErrorCode());
    }

    @Test
    void edgeAndClusterChecks() {
        BrokerRegistrationResponse negative = node.lifecycle().registerBroker(AdminTestNode.registration(1)
                .toBuilder().setBrokerId(-1).build());
        assertEquals(ErrorCode.INVALID_REQUEST, negative.getErrorCode());
        assertEquals("broker_id is -1; a broker id is not negative.", negative.getErrorMessage());

        BrokerRegistrationResponse noIncarnation = node.lifecycle().registerBroker(AdminTestNode.registration(1)
                .toBuilder().clearIncarnationId().build());
        assertEquals(ErrorCode.INVALID_REQUEST, noIncarnation.getErrorCode());

        BrokerRegistrationRequest otherCluster = AdminTestNode.registration(1).toBuilder().setClusterId("other")
                .build();
        assertEquals(ErrorCode.INCONSISTENT_CLUSTER_ID, node.lifecycle().registerBroker(otherCluster).getErrorCode());

        assertEquals(ErrorCode.BROKER_ID_NOT_REGISTERED, node.lifecycle().brokerHeartbeat(BrokerHeartbeatRequest
                .newBuilder().setBrokerId(5).setBrokerEpoch(1).build()).getErrorCode());
        assertEquals(ErrorCode.INVALID_REQUEST, node.lifecycle().controlledShutdown(ControlledShutdownRequest
                .newBuilder().setBrokerId(-2).build()).getErrorCode());
    }
}
