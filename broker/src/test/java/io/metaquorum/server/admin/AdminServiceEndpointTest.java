package io.metaquorum.server.admin;

import io.metaquorum.node.admin.RequestLimits;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin API through gRPC against an active controller with three unfenced brokers. */
class AdminServiceEndpointTest {
    private AdminTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = AdminTestNode.activeWithThreeBrokers();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private CreateTopicsResponse create(CreatableTopic... topics) {
        return node.admin().createTopics(CreateTopicsRequest.newBuilder().addAllTopics(List.of(topics))
                .setTimeoutMs(5_000).build());
    }

    private static CreatableTopic topic(String name, int partitions, int replicationFactor) {
        return CreatableTopic.newBuilder().setName(name).setNumPartitions(partitions)
                .setReplicationFactor(replicationFactor).build();
    }

    @Test
    void createdTopicIsListedAndDescribed() {
        CreateTopicsResponse response = create(topic("t1", 3, 3));
        assertEquals(ErrorCode.NONE, response.getHeader().getErrorCode());
        CreatableTopicResult result = response.getTopics(0);
        assertEquals(ErrorCode.NONE, result.getErrorCode(), result.getErrorMessage());
        assertNotEquals(TopicIds.ZERO, result.getTopicId());
        assertEquals(3, result.getNumPartitions());
        assertEquals(3, result.getReplicationFactor());
        assertTrue(result.getConfigsList().stream().anyMatch(c -> c.getName().equals("retention.ms")
                && c.getConfigSource() == ConfigSource.DEFAULT_CONFIG && c.getValue().equals("604800000")));

        List<ListedTopic> listed = node.admin().listTopics(ListTopicsRequest.getDefaultInstance()).getTopicsList();
        assertEquals(List.of(ListedTopic.newBuilder().setName("t1").setTopicId(result.getTopicId()).build()), listed);

        DescribeTopicsResponse byName = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setName("t1")).build());
        assertEquals(node.gateway.committedImage().lastCommittedOffset(), byName.getHeader().getMetadataOffset());
        DescribedTopic described = byName.getTopics(0);
        assertEquals(ErrorCode.NONE, described.getErrorCode());
        assertEquals(3, described.getPartitionsCount());
        described.getPartitionsList().forEach(p -> {
            assertEquals(3, p.getReplicasCount());
            assertEquals(p.getReplicas(0), p.getLeaderId());
            assertEquals(0, p.getOfflineReplicasCount());
        });
        DescribeTopicsResponse byId = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setTopicId(result.getTopicId())).build());
        assertEquals(described, byId.getTopics(0));
        assertEquals(List.of(described), node.admin().describeTopics(DescribeTopicsRequest.getDefaultInstance())
                .getTopicsList());
    }

    @Test
    void controllerErrorsArePerTopic() {
        assertEquals(ErrorCode.NONE, create(topic("t1", 1, 1)).getTopics(0).getErrorCode());
        CreateTopicsResponse again = create(topic("t1", 1, 1));
        assertEquals(ErrorCode.NONE, again.getHeader().getErrorCode());
        assertEquals(ErrorCode.TOPIC_ALREADY_EXISTS, again.getTopics(0).getErrorCode());
        assertEquals("Topic 't1' already exists.", again.getTopics(0).getErrorMessage());
        assertEquals(ErrorCode.INVALID_REPLICATION_FACTOR, create(topic("t2", 1, 4)).getTopics(0).getErrorCode());
        assertEquals(ErrorCode.INVALID_PARTITIONS, create(topic("t3", 0, 1)).getTopics(0).getErrorCode());
        CreatableTopic badConfig = topic("t4", 1, 1).toBuilder().addConfigs(CreatableTopicConfig.newBuilder()
                .setName("retention.ms").setValue("notanumber")).build();
        assertEquals(ErrorCode.INVALID_CONFIG, create(badConfig).getTopics(0).getErrorCode());
        CreatableTopic unknownBroker = CreatableTopic.newBuilder().setName("t5").addAssignments(
                CreatableReplicaAssignment.newBuilder().setPartitionIndex(0).addBrokerIds(99)).build();
        assertEquals(ErrorCode.INVALID_REPLICA_ASSIGNMENT, create(unknownBroker).getTopics(0).getErrorCode());
    }

    @Test
    void batchOfFiveWithDuplicateAndInvalidNameGetsOneResultPerName() {
        CreateTopicsResponse response = create(topic("a", 1, 1), topic("b", 2, 2), topic("a", 1, 1),
                topic("bad name!", 1, 1), topic("c", 1, 3));
        Map<String, ErrorCode> codes = new TreeMap<>();
        response.getTopicsList().forEach(t -> codes.put(t.getName(), t.getErrorCode()));
        assertEquals(Map.of("a", ErrorCode.INVALID_REQUEST, "b", ErrorCode.NONE, "bad name!",
                ErrorCode.INVALID_TOPIC_EXCEPTION, "c", ErrorCode.NONE), codes);
        assertEquals(List.of("b", "c"), node.admin().listTopics(ListTopicsRequest.getDefaultInstance())
                .getTopicsList().stream().map(ListedTopic::getName).toList());
    }

    @Test
    void absurdRequestsAreRefusedAtTheEdgeNamingTheField() {
        CreateTopicsRequest.Builder many = CreateTopicsRequest.newBuilder();
        for (int i = 0; i <= RequestLimits.ENTRIES_PER_REQUEST_MAX; i++) {
            many.addTopics(topic("t" + i, 1, 1));
        }
        CreateTopicsResponse tooMany = node.admin().createTopics(many.build());
        assertEquals(ErrorCode.INVALID_REQUEST, tooMany.getHeader().getErrorCode());
        assertTrue(tooMany.getHeader().getErrorMessage().startsWith("topics has 10001 entries"),
                tooMany.getHeader().getErrorMessage());

        CreateTopicsResponse negative = create(CreatableTopic.newBuilder().setName("t").addAssignments(
                CreatableReplicaAssignment.newBuilder().setPartitionIndex(0).addBrokerIds(-3)).build());
        assertEquals(ErrorCode.INVALID_REQUEST, negative.getHeader().getErrorCode());
        assertTrue(negative.getHeader().getErrorMessage().startsWith("topics[0].assignments[0].broker_ids[0] is -3"),
                negative.getHeader().getErrorMessage());

        CreateTopicsResponse longName = create(topic("x".repeat(RequestLimits.STRING_CHARS_MAX + 1), 1, 1));
        assertEquals(ErrorCode.INVALID_REQUEST, longName.getHeader().getErrorCode());
        assertTrue(longName.getHeader().getErrorMessage().startsWith("topics[0].name has 32769 characters"));

        DeleteTopicsResponse noRef = node.admin().deleteTopics(DeleteTopicsRequest.newBuilder()
                .addTopics(TopicRef.getDefaultInstance()).build());
        assertEquals(ErrorCode.INVALID_REQUEST, noRef.getHeader().getErrorCode());
        assertTrue(noRef.getHeader().getErrorMessage().contains("topics[0] names neither"));
        assertEquals(0, node.admin().listTopics(ListTopicsRequest.getDefaultInstance()).getTopicsCount());
    }

    @Test
    void unknownTopicsAreUnknownByNameAndById() {
        DescribeTopicsResponse response = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setName("nope"))
                .addTopics(TopicRef.newBuilder().setTopicId(TopicIds.uuid(5, 5))).build());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, response.getTopics(0).getErrorCode());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_ID, response.getTopics(1).getErrorCode());
    }

    @Test
    void deleteAndCreatePartitions() {
        create(topic("t1", 1, 2), topic("t2", 1, 1));
        CreatePartitionsResponse grown = node.admin().createPartitions(CreatePartitionsRequest.newBuilder()
                .addTopics(CreatePartitionsTopic.newBuilder().setName("t1").setCount(3))
                .addTopics(CreatePartitionsTopic.newBuilder().setName("t2").setCount(1)).setTimeoutMs(5_000).build());
        assertEquals(ErrorCode.NONE, grown.getTopics(0).getErrorCode(), grown.getTopics(0).getErrorMessage());
        assertEquals(ErrorCode.INVALID_PARTITIONS, grown.getTopics(1).getErrorCode());
        DescribedTopic t1 = node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setName("t1")).build()).getTopics(0);
        assertEquals(3, t1.getPartitionsCount());

        DeleteTopicsResponse deleted = node.admin().deleteTopics(DeleteTopicsRequest.newBuilder()
                .addTopics(TopicRef.newBuilder().setName("t2")).addTopics(TopicRef.newBuilder().setName("nope"))
                .setTimeoutMs(5_000).build());
        assertEquals(ErrorCode.NONE, deleted.getTopics(0).getErrorCode());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, deleted.getTopics(1).getErrorCode());
        assertEquals(List.of("t1"), node.admin().listTopics(ListTopicsRequest.getDefaultInstance())
                .getTopicsList().stream().map(ListedTopic::getName).toList());
    }

    @Test
    void configsAreDescribedWithTheirSourceAndAltered() {
        create(topic("t1", 1, 1).toBuilder().addConfigs(CreatableTopicConfig.newBuilder().setName("retention.ms")
                .setValue("1000")).build());
        assertEquals(new DescribedTopicConfig("1000", ConfigSource.DYNAMIC_TOPIC_CONFIG), config("t1", "retention.ms"));
        assertEquals(new DescribedTopicConfig("delete", ConfigSource.DEFAULT_CONFIG), config("t1", "cleanup.policy"));

        IncrementalAlterConfigsResponse altered = alter("t1",
                AlterableConfig.newBuilder().setName("cleanup.policy").setValue("compact").build(),
                AlterableConfig.newBuilder().setName("retention.ms").setConfigOperation(ConfigOperation.DELETE).build());
        assertEquals(ErrorCode.NONE, altered.getResults(0).getErrorCode(), altered.getResults(0).getErrorMessage());
        assertEquals(new DescribedTopicConfig("compact", ConfigSource.DYNAMIC_TOPIC_CONFIG),
                config("t1", "cleanup.policy"));
        assertEquals(new DescribedTopicConfig("604800000", ConfigSource.DEFAULT_CONFIG), config("t1", "retention.ms"));

        assertEquals(ErrorCode.INVALID_CONFIG, alter("t1", AlterableConfig.newBuilder().setName("cleanup.policy")
                .setValue("shred").build()).getResults(0).getErrorCode());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, alter("nope", AlterableConfig.newBuilder()
                .setName("cleanup.policy").setValue("compact").build()).getResults(0).getErrorCode());
        IncrementalAlterConfigsResponse append = alter("t1", AlterableConfig.newBuilder().setName("cleanup.policy")
                .setConfigOperation(ConfigOperation.APPEND).setValue("compact").build());
        assertEquals(ErrorCode.INVALID_REQUEST, append.getHeader().getErrorCode());
        DescribeConfigsResult unknown = node.admin().describeConfigs(DescribeConfigsRequest.newBuilder()
                .addResources(topicResource("nope")).build()).getResults(0);
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, unknown.getErrorCode());
    }

    private record DescribedTopicConfig(String value, ConfigSource source) {
    }

    private DescribedTopicConfig config(String topic, String key) {
        DescribeConfigsResult result = node.admin().describeConfigs(DescribeConfigsRequest.newBuilder()
                .addResources(topicResource(topic).toBuilder().addConfigurationKeys(key)).build()).getResults(0);
        assertEquals(ErrorCode.NONE, result.getErrorCode(), result.getErrorMessage());
        assertEquals(1, result.getConfigsCount());
        DescribedConfig config = result.getConfigs(0);
        return new DescribedTopicConfig(config.getValue(), config.getConfigSource());
    }

    private static DescribeConfigsResource topicResource(String topic) {
        return DescribeConfigsResource.newBuilder().setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC)
                .setResourceName(topic).build();
    }

    private IncrementalAlterConfigsResponse alter(String topic, AlterableConfig... configs) {
        return node.admin().incrementalAlterConfigs(IncrementalAlterConfigsRequest.newBuilder().addResources(
                AlterConfigsResource.newBuilder().setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC)
                        .setResourceName(topic).addAllConfigs(List.of(configs))).build());
    }

    @Test
    void fullQueueIsRetriable() {
        node.gateway.fillQueue(true);
        CreateTopicsResponse response = create(topic("t1", 1, 1));
        assertEquals(ErrorCode.THROTTLING_QUOTA_EXCEEDED, response.getHeader().getErrorCode());
        assertEquals(ErrorCode.THROTTLING_QUOTA_EXCEEDED, response.getTopics(0).getErrorCode());
        node.gateway.fillQueue(false);
        assertEquals(ErrorCode.NONE, create(topic("t1", 1, 1)).getTopics(0).getErrorCode());
    }

    @Test
    void describeClusterListsBrokersAndTheController() {
        DescribeClusterResponse cluster = node.admin().describeCluster(DescribeClusterRequest.getDefaultInstance());
        assertEquals(AdminTestNode.CLUSTER_ID, cluster.getClusterId());
        assertEquals(1, cluster.getHeader().getControllerId());
        assertEquals(List.of(1, 2, 3), cluster.getBrokersList().stream().map(b -> b.getBrokerId()).toList());
        assertTrue(cluster.getBrokersList().stream().noneMatch(b -> b.getFenced()));
        assertEquals(9093, cluster.getBrokers(0).getPort());
    }
}
