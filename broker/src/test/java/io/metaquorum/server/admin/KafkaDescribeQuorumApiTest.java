package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.NodeEndpoint;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeQuorumResponseData;
import org.apache.kafka.common.message.DescribeQuorumResponseData.PartitionData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeQuorumRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's DescribeQuorum on a node with the authorizer on, answering what the raft leader
 * said (a fixed answer here): the fields each version carries, a leader that is not known,
 * a caller without DESCRIBE on the cluster, and a request for another partition.
 */
class KafkaDescribeQuorumApiTest {
    private static final long NOW_MS = 1_800_000_000_000L;

    private KafkaApisTestNode node;

    @BeforeEach
    void start() {
        node = new KafkaApisTestNode();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    static DescribeQuorumResponse leaderAnswer() {
        DescribeQuorumPartitionResponse partition = DescribeQuorumPartitionResponse.newBuilder()
                .setPartitionIndex(0).setErrorCode(ErrorCode.NONE).setLeaderId(1).setLeaderEpoch(5)
                .setHighWatermark(100).setNowMs(NOW_MS)
                .addCurrentVoters(ReplicaState.newBuilder().setReplicaId(1).setLogEndOffset(120)
                        .setLastFetchTimestampMs(NOW_MS).setLastCaughtUpTimestampMs(NOW_MS)
                        .setReplicaDirectoryId(TopicIds.uuid(11, 12)))
                .addCurrentVoters(ReplicaState.newBuilder().setReplicaId(2).setLogEndOffset(100)
                        .setLastFetchTimestampMs(NOW_MS - 40).setLastCaughtUpTimestampMs(NOW_MS - 90)
                        .setReplicaDirectoryId(TopicIds.uuid(21, 22)))
                .addObservers(ReplicaState.newBuilder().setReplicaId(7).setLogEndOffset(90)
                        .setLastFetchTimestampMs(-1).setLastCaughtUpTimestampMs(-1)
                        .setReplicaDirectoryId(TopicIds.ZERO))
                .build();
        return DescribeQuorumResponse.newBuilder().setErrorCode(ErrorCode.NONE).setClusterId("c")
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(partition))
                .addNodes(NodeEndpoint.newBuilder().setNodeId(2).setHost("node-2").setPort(9094))
                .addNodes(NodeEndpoint.newBuilder().setNodeId(1).setHost("node-1").setPort(9093))
                .build();
    }

    private static DescribeQuorumRequest request(short version) {
        return new DescribeQuorumRequest.Builder(DescribeQuorumRequest.singletonRequest(
                Topic.CLUSTER_METADATA_TOPIC_PARTITION)).build(version);
    }

    private DescribeQuorumResponseData call(org.apache.kafka.common.requests.DescribeQuorumRequest request)
            throws Exception {
        org.apache.kafka.common.requests.DescribeQuorumResponse response = node.call(ADMIN, request);
        return response.data();
    }

    @Test
    void theLeadersAnswerAtEachVersionCarriesWhatThatVersionCan() throws Exception {
        node.answerQuorumWith(leaderAnswer());
        for (short version = ApiKeys.DESCRIBE_QUORUM.oldestVersion(); version <= ApiKeys.DESCRIBE_QUORUM.latestVersion();
             version++) {
            DescribeQuorumResponseData data = call(request(version));
            assertEquals(Errors.NONE.code(), data.errorCode());
            assertEquals(1, data.topics().size());
            assertEquals(Topic.CLUSTER_METADATA_TOPIC_NAME, data.topics().get(0).topicName());
            PartitionData partition = data.topics().get(0).partitions().get(0);
            assertEquals(0, partition.partitionIndex());
            assertEquals(Errors.NONE.code(), partition.errorCode());
            assertEquals(1, partition.leaderId());
            assertEquals(5, partition.leaderEpoch());
            assertEquals(100, partition.highWatermark());
            assertEquals(List.of(1, 2), partition.currentVoters().stream()
                    .map(DescribeQuorumResponseData.ReplicaState::replicaId).toList());
            assertEquals(List.of(120L, 100L), partition.currentVoters().stream()
                    .map(DescribeQuorumResponseData.ReplicaState::logEndOffset).toList());
            assertEquals(7, partition.observers().get(0).replicaId());
            DescribeQuorumResponseData.ReplicaState follower = partition.currentVoters().get(1);
            assertEquals(version >= 1 ? NOW_MS - 40 : -1, follower.lastFetchTimestamp(), "v" + version);
            assertEquals(version >= 1 ? NOW_MS - 90 : -1, follower.lastCaughtUpTimestamp(), "v" + version);
            assertEquals(version >= 2 ? new Uuid(21, 22) : Uuid.ZERO_UUID, follower.replicaDirectoryId());
            if (version >= 2) {
                assertNull(partition.errorMessage());
                assertEquals(List.of(1, 2), data.nodes().stream().map(DescribeQuorumResponseData.Node::nodeId).toList());
                DescribeQuorumResponseData.Listener listener = data.nodes().find(1).listeners().iterator().next();
                assertEquals(KafkaApisTestNode.LISTENER, listener.name());
                assertEquals("node-1", listener.host());
                assertEquals(9093, listener.port());
            } else {
                assertEquals(0, data.nodes().size());
            }
        }
    }

    @Test
    void noLeaderIsNotLeaderOrFollowerWhichKafkasClientRetries() throws Exception {
        node.answerQuorumWith(DescribeQuorumResponse.newBuilder().setErrorCode(ErrorCode.NONE)
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(DescribeQuorumPartitionResponse.newBuilder().setPartitionIndex(0)
                                .setErrorCode(ErrorCode.NOT_LEADER_OR_FOLLOWER).setLeaderId(-1).setLeaderEpoch(3)))
                .build());
        PartitionData partition = call(request(ApiKeys.DESCRIBE_QUORUM.latestVersion())).topics().get(0)
                .partitions().get(0);
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER.code(), partition.errorCode());
        assertEquals(-1, partition.leaderId());
        assertInstanceOf(NotLeaderOrFollowerException.class, Errors.forCode(partition.errorCode()).exception());
        assertEquals(true, Errors.forCode(partition.errorCode()).exception()
                instanceof org.apache.kafka.common.errors.RetriableException);
    }

    @Test
    void aCallerWithoutDescribeOnTheClusterIsRefusedBeforeTheLeaderIsAsked() throws Exception {
        node.answerQuorumWith(leaderAnswer());
        org.apache.kafka.common.requests.DescribeQuorumResponse response = node.call(MALLORY,
                request(ApiKeys.DESCRIBE_QUORUM.latestVersion()));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), response.data().errorCode());
        assertEquals(List.of(), response.data().topics());
        assertInstanceOf(ClusterAuthorizationException.class,
                Errors.forCode(response.data().errorCode()).exception());
    }

    @Test
    void anotherPartitionIsUnknown() throws Exception {
        node.answerQuorumWith(leaderAnswer());
        DescribeQuorumResponseData data = call(new DescribeQuorumRequest.Builder(
                DescribeQuorumRequest.singletonRequest(new TopicPartition("orders", 0)))
                .build(ApiKeys.DESCRIBE_QUORUM.latestVersion()));
        assertEquals(Errors.NONE.code(), data.errorCode());
        assertEquals("orders", data.topics().get(0).topicName());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), data.topics().get(0).partitions().get(0).errorCode());
    }
}
