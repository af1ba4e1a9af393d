package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DeleteTopics, CreatePartitions, IncrementalAlterConfigs and UpdateFeatures at the managers. */
class TopicOperationsTest {
    private ControllerFixture fixture;
    private Uuid topicId;

    @BeforeEach
    void oneTopic() {
        fixture = new ControllerFixture();
        fixture.addBrokers(3);
        topicId = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(
                Topic.of("t", 3, 2).withConfigs(List.of(new Config("retention.ms", "1000")))), false)))
                .topic("t").topicId();
    }

    @Test
    void deleteByNameAndByIdRemovesTheTopicAndItsConfigs() {
        var results = fixture.apply(fixture.replication.deleteTopics(List.of("t", "nope"), List.of(topicId,
                TopicIds.uuid(5, 5))));
        assertEquals(ApiError.NONE, results.get(0).error());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, results.get(1).error().code());
        assertEquals(ApiError.NONE, results.get(2).error(), "by id, the same topic: one RemoveTopicRecord");
        assertEquals(ErrorCode.UNKNOWN_TOPIC_ID, results.get(3).error().code());
        assertNull(fixture.image().topics().topic("t"));
        assertTrue(fixture.image().configs().configs(ConfigResource.topic("t")).isEmpty());
    }

    @Test
    void createPartitionsOnlyGrows() {
        var results = fixture.apply(fixture.replication.createPartitions(List.of(
                new CreatePartitionsTopic("t", 2, List.of())), false));
        assertEquals(ErrorCode.INVALID_PARTITIONS, results.get(0).error().code());
        assertEquals("The topic t currently has 3 partition(s); 2 would not be an increase.",
                results.get(0).error().message());
        results = fixture.apply(fixture.replication.createPartitions(List.of(
                new CreatePartitionsTopic("t", 3, List.of())), false));
        assertEquals("Topic already has 3 partition(s).", results.get(0).error().message());
        results = fixture.apply(fixture.replication.createPartitions(List.of(
                new CreatePartitionsTopic("missing", 5, List.of())), false));
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, results.get(0).error().code());
        results = fixture.apply(fixture.replication.createPartitions(List.of(
                new CreatePartitionsTopic("t", 5, List.of())), false));
        assertEquals(ApiError.NONE, results.get(0).error());
        assertEquals(5, fixture.image().topics().topic("t").partitionCount());
        assertEquals(2, fixture.image().topics().topic("t").partition(4).replicaCount());
    }

    @Test
    void createPartitionsChecksAManualAssignment() {
        var bad = fixture.apply(fixture.replication.createPartitions(List.of(new CreatePartitionsTopic("t", 4,
                List.of(new PartitionAssignment(3, List.of(0, 0))))), false));
        assertEquals(ErrorCode.INVALID_REPLICA_ASSIGNMENT, bad.get(0).error().code());
        var ok = fixture.apply(fixture.replication.createPartitions(List.of(new CreatePartitionsTopic("t", 4,
                List.of(new PartitionAssignment(3, List.of(2, 1))))), false));
        assertEquals(ApiError.NONE, ok.get(0).error());
        assertEquals(2, fixture.image().topics().topic("t").partition(3).leader());
    }

    @Test
    void incrementalAlterConfigsSetsAndDeletesValidatedKeys() {
        ConfigResource t = ConfigResource.topic("t");
        var results = fixture.apply(fixture.configs.incrementalAlterConfigs(List.of(new AlterConfigsResource(t, List.of(
                new AlterConfigOp("retention.ms", OpType.DELETE, null),
                new AlterConfigOp("cleanup.policy", OpType.SET, "compact")))), false));
        assertEquals(ApiError.NONE, results.get(0).error());
        assertEquals(Map.of("cleanup.policy", "compact"), fixture.configs.describe(t));

        results = fixture.apply(fixture.configs.incrementalAlterConfigs(List.of(
                new AlterConfigsResource(t, List.of(new AlterConfigOp("segment.bytes", OpType.SET, "10"))),
                new AlterConfigsResource(t, List.of(new AlterConfigOp("no.such", OpType.DELETE, null))),
                new AlterConfigsResource(ConfigResource.topic("gone"), List.of(
                        new AlterConfigOp("retention.ms", OpType.SET, "1")))), false));
        assertEquals(ErrorCode.INVALID_CONFIG, results.get(0).error().code());
        assertEquals("Invalid value 10 for configuration segment.bytes: Value must be at least 1048576",
                results.get(0).error().message());
        assertEquals(ErrorCode.INVALID_CONFIG, results.get(1).error().code());
        assertEquals(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, results.get(2).error().code());
        assertEquals(Map.of("cleanup.policy", "compact"), fixture.configs.describe(t), "failures change nothing");
    }

    @Test
    void featuresMoveWithinTheSupportedLevels() {
        assertEquals(ApiError.NONE, fixture.apply(fixture.features.updateFeature("metadata.version", 2)));
        assertEquals(2, fixture.image().features().level("metadata.version").orElseThrow());
        assertEquals(ErrorCode.INVALID_UPDATE_VERSION,
                fixture.apply(fixture.features.updateFeature("metadata.version", 4)).code());
        assertEquals(ErrorCode.INVALID_UPDATE_VERSION,
                fixture.apply(fixture.features.updateFeature("metadata.version", 1)).code(), "no downgrade");
        assertEquals(ErrorCode.INVALID_UPDATE_VERSION, fixture.apply(fixture.features.updateFeature("other", 1)).code());
    }
}
