package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import java.util.List;
import org.apache.kafka.clients.admin.EndpointType;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DescribeCluster and ListPartitionReassignments: brokers 2 and 3 unfenced, 4 fenced, all with the listener. */
class ClusterHandlersTest {
    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.DISABLED).brokers(3, 2);
        kafka.node.register(4, KafkaHarness.listeners(4), true, CallOrigin.CLIENT);
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    private DescribeClusterResponseData describe(DescribeClusterRequestData data, short version) {
        return kafka.<DescribeClusterResponse>call(data, version).data();
    }

    @Test
    void theUnfencedBrokersOnTheListenerInEveryVersion() {
        for (short version = 0; version <= ApiKeys.DESCRIBE_CLUSTER.latestVersion(); version++) {
            DescribeClusterResponseData answer = describe(new DescribeClusterRequestData(), version);
            assertEquals(Errors.NONE.code(), answer.errorCode());
            assertNull(answer.errorMessage());
            assertEquals("test-cluster", answer.clusterId());
            assertEquals(List.of(2, 3), answer.brokers().stream().map(DescribeClusterBroker::brokerId).toList());
            assertEquals(2, answer.controllerId(), "node 1 is no broker: the lowest listed one");
            assertEquals(19093, answer.brokers().find(3).port());
            assertEquals("rack-b", answer.brokers().find(2).rack());
            assertEquals(Integer.MIN_VALUE, answer.clusterAuthorizedOperations());
            if (version >= 1) {
                assertEquals(EndpointType.BROKER.id(), answer.endpointType());
            }
        }
    }

    @Test
    void versionTwoListsFencedBrokersWhenAsked() {
        DescribeClusterResponseData answer = describe(new DescribeClusterRequestData().setIncludeFencedBrokers(true),
                (short) 2);
        assertEquals(List.of(2, 3, 4), answer.brokers().stream().map(DescribeClusterBroker::brokerId).toList());
        assertTrue(answer.brokers().find(4).isFenced());
        assertFalse(answer.brokers().find(2).isFenced());
        assertEquals(2, answer.controllerId(), "never a fenced broker");
    }

    @Test
    void theControllersEndpointIsAnotherListener() {
        DescribeClusterResponseData controllers = describe(new DescribeClusterRequestData()
                .setEndpointType(EndpointType.CONTROLLER.id()), (short) 1);
        assertEquals(Errors.MISMATCHED_ENDPOINT_TYPE.code(), controllers.errorCode());
        assertTrue(controllers.brokers().isEmpty());
        DescribeClusterResponseData unknown = describe(new DescribeClusterRequestData().setEndpointType((byte) 9),
                (short) 2);
        assertEquals(Errors.UNSUPPORTED_ENDPOINT_TYPE.code(), unknown.errorCode());
    }

    @Test
    void noReassignmentIsEverUnderWay() {
        ListPartitionReassignmentsResponseData all = kafka.<ListPartitionReassignmentsResponse>call(
                new ListPartitionReassignmentsRequestData().setTopics(null), (short) 0).data();
        assertEquals(Errors.NONE.code(), all.errorCode());
        assertTrue(all.topics().isEmpty());
        ListPartitionReassignmentsResponseData named = kafka.<ListPartitionReassignmentsResponse>call(
                new ListPartitionReassignmentsRequestData().setTopics(List.of(
                        new ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics().setName("t")
                                .setPartitionIndexes(List.of(0)))), (short) 0).data();
        assertTrue(named.topics().isEmpty());
    }
}
