package io.metaquorum.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.raft.TopicIds;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CreateTopics at the manager: one passing and one failing case per rule (docs/architecture.md §6, docs/kafka-compatibility.md). */
class CreateTopicsTest {
    private ControllerFixture fixture;

    @BeforeEach
    void threeBrokers() {
        fixture = new ControllerFixture();
        fixture.addBrokers(3);
    }

    private TopicResult create(Topic topic) {
        return fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(topic), false)))
                .topic(topic.name());
    }

    private static Topic manual(String name, List<List<Integer>> replicas) {
        List<PartitionAssignment> assignments = new java.util.ArrayList<>();
        for (int p = 0; p < replicas.size(); p++) {
            assignments.add(new PartitionAssignment(p, replicas.get(p)));
        }
        return new Topic(name, -1, -1, assignments, List.of());
    }

    private static void assertError(ErrorCode code, String messagePart, TopicResult result) {
        assertEquals(code, result.error().code(), result.error().toString());
        assertTrue(result.error().message().contains(messagePart), result.error().message());
    }

    private void assertCreated(TopicResult result, int partitions, int replicationFactor) {
        assertEquals(ApiError.NONE, result.error());
        assertEquals(partitions, result.numPartitions());
        assertEquals(replicationFactor, result.replicationFactor());
        TopicImage topic = fixture.image().topics().topic(result.name());
        assertNotNull(topic, result.name() + " is in the image");
        assertEquals(result.topicId(), topic.id().toUuid());
        assertEquals(partitions, topic.partitionCount());
    }

    @Test
    void aValidTopicGetsOneTopicRecordAndAPartitionRecordPerPartition() {
        ControllerResult<CreateTopicsResponse> result = fixture.replication.createTopics(
                new CreateTopicsRequest(List.of(Topic.of("t1", 3, 2)), false));
        assertEquals(List.of(MetadataRecord.RecordCase.TOPIC, MetadataRecord.RecordCase.PARTITION,
                        MetadataRecord.RecordCase.PARTITION, MetadataRecord.RecordCase.PARTITION),
                result.records().stream().map(MetadataRecord::getRecordCase).toList());
        TopicResult t1 = fixture.apply(result).topic("t1");
        assertCreated(t1, 3, 2);
        for (int p = 0; p < 3; p++) {
            PartitionRegistration partition = fixture.image().topics().topic("t1").partition(p);
            assertEquals(partition.preferredLeader(), partition.leader(), "the first replica leads");
            assertEquals(Arrays.toString(partition.replicas()), Arrays.toString(partition.isr()));
            assertEquals(0, partition.leaderEpoch());
            assertEquals(0, partition.partitionEpoch());
        }
    }

    @Test
    void aNameTwiceInOneRequestIsAnInvalidRequestForThatNameOnly() {
        CreateTopicsResponse response = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(
                List.of(Topic.of("dup", 1, 1), Topic.of("other", 1, 1), Topic.of("dup", 2, 1)), false)));
        assertEquals(2, response.topics().size(), "one result per distinct name");
        assertError(ErrorCode.INVALID_REQUEST, "more than once", response.topic("dup"));
        assertNull(fixture.image().topics().topic("dup"));
        assertCreated(response.topic("other"), 1, 1);
    }

    @Test
    void illegalNamesAreInvalidTopicExceptions() {
        for (String name : List.of("", ".", "..", "x".repeat(250), "a b", "t/1", "é")) {
            assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "", create(Topic.of(name, 1, 1)));
        }
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "250 characters long, longer than the 249 allowed",
                create(Topic.of("x".repeat(250), 1, 1)));
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is empty.", create(Topic.of("", 1, 1)));
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "are reserved", create(Topic.of("..", 1, 1)));
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "contains ' '", create(Topic.of("a b", 1, 1)));
        assertCreated(create(Topic.of("x".repeat(249), 1, 1)), 1, 1);
        assertCreated(create(Topic.of("Az09._-", 1, 1)), 1, 1);
    }

    @Test
    void theMetadataTopicNameIsReserved() {
        assertError(ErrorCode.INVALID_REQUEST, "Creation of internal topic __cluster_metadata is prohibited.",
                create(Topic.of(TopicIds.METADATA_TOPIC_NAME, 1, 1)));
        assertCreated(create(Topic.of("__cluster_metadata2", 1, 1)), 1, 1);
    }

    @Test
    void anExistingNameIsTopicAlreadyExists() {
        assertCreated(create(Topic.of("t", 1, 1)), 1, 1);
        assertError(ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 't' already exists.", create(Topic.of("t", 1, 1)));
    }

    @Test
    void anAppendedButUncommittedTopicExistsUntilLeadershipIsLost() {
        MetadataImageHolder committed = new MetadataImageHolder(fixture.image());
        assertCreated(create(Topic.of("speculative", 1, 1)), 1, 1);
        assertError(ErrorCode.TOPIC_ALREADY_EXISTS, "already exists", create(Topic.of("speculative", 1, 1)));
        fixture.state.revertTo(committed.image());
        assertNull(fixture.image().topics().topic("speculative"), "reverted to the last committed image");
    }

    /** The committed image kept aside, as the controller's driver keeps it. */
    private record MetadataImageHolder(io.metaquorum.metadata.image.MetadataImage image) {
    }

    @Test
    void aNameThatDiffersOnlyByDotOrUnderscoreCollides() {
        assertCreated(create(Topic.of("a.b", 1, 1)), 1, 1);
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic 'a_b' collides with existing topic: a.b",
                create(Topic.of("a_b", 1, 1)));
        assertCreated(create(Topic.of("a-b", 1, 1)), 1, 1);
        CreateTopicsResponse sameRequest = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(
                List.of(Topic.of("x.y", 1, 1), Topic.of("x_y", 1, 1)), false)));
        assertEquals(ApiError.NONE, sameRequest.topic("x.y").error());
        assertError(ErrorCode.INVALID_TOPIC_EXCEPTION, "collides", sameRequest.topic("x_y"));
    }

    @Test
    void anAssignmentWithCountsIsAnInvalidRequest() {
        Topic both = new Topic("both", 1, -1, List.of(new PartitionAssignment(0, List.of(0))), List.of());
        assertError(ErrorCode.INVALID_REQUEST, "only one of the two", create(both));
        Topic rf = new Topic("rf", -1, 1, List.of(new PartitionAssignment(0, List.of(0))), List.of());
        assertError(ErrorCode.INVALID_REQUEST, "only one of the two", create(rf));
    }

    @Test
    void aValidManualAssignmentIsUsedAsGiven() {
        TopicResult result = create(manual("m", List.of(List.of(2, 0), List.of(1, 2))));
        assertCreated(result, 2, 2);
        PartitionRegistration p0 = fixture.image().topics().topic("m").partition(0);
        assertEquals("[2, 0]", Arrays.toString(p0.replicas()));
        assertEquals(2, p0.leader());
    }

    @Test
    void manualAssignmentRulesAreInvalidReplicaAssignment() {
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "consecutive", create(new Topic("gap", -1, -1,
                List.of(new PartitionAssignment(0, List.of(0)), new PartitionAssignment(2, List.of(1))), List.of())));
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "consecutive", create(new Topic("from1", -1, -1,
                List.of(new PartitionAssignment(1, List.of(0))), List.of())));
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "an empty replica list",
                create(manual("empty", List.of(List.of()))));
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "includes the broker 1 more than once.",
                create(manual("twice", List.of(List.of(1, 1)))));
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "includes broker 99, but no such broker is registered.",
                create(manual("unknown", List.of(List.of(0, 99)))));
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "a partition with 2 replica(s), but this is not consistent "
                + "with previous partitions, which have 3 replica(s).",
                create(manual("unequal", List.of(List.of(0, 1, 2), List.of(0, 1)))));
        assertTrue(fixture.image().topics().topicCount() == 0, "none of them was created");
    }

    @Test
    void aManualAssignmentOnFencedBrokersOnlyIsRefusedAndPartlyFencedLeavesThemOutOfTheIsr() {
        fixture.nowMs += ControllerFixture.SESSION_TIMEOUT_MS;
        fixture.apply(fixture.cluster.heartbeat(new ClusterControlManager.HeartbeatRequest(0,
                fixture.image().cluster().broker(0).epoch(), fixture.nextOffset(), false, false), fixture.nowMs));
        assertEquals(List.of(1), fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)), "one per call");
        assertEquals(List.of(2), fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)));
        assertTrue(fixture.apply(fixture.cluster.fenceOneExpiredBroker(fixture.nowMs)).isEmpty());
        assertTrue(fixture.image().cluster().broker(1).fenced());
        assertError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "are fenced", create(manual("fenced", List.of(List.of(1, 2)))));
        assertCreated(create(manual("partly", List.of(List.of(1, 0)))), 1, 2);
        PartitionRegistration p = fixture.image().topics().topic("partly").partition(0);
        assertEquals("[0]", Arrays.toString(p.isr()));
        assertEquals(0, p.leader());
    }

    @Test
    void partitionCountsOutOfRangeAreInvalidPartitions() {
        for (int partitions : List.of(0, -2, ReplicationDefaults.RECORDS_PER_OPERATION_MAX)) {
            assertEquals(ErrorCode.INVALID_PARTITIONS, create(Topic.of("p" + partitions, partitions, 1)).error().code());
        }
        assertError(ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.",
                create(Topic.of("zero", 0, 1)));
        assertCreated(create(Topic.of("many", 100, 1)), 100, 1);
    }

    @Test
    void replicationFactorsOutOfRangeAreInvalidReplicationFactor() {
        assertError(ErrorCode.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0, or -1 to use "
                + "the default value.", create(Topic.of("rf0", 1, 0)));
        assertError(ErrorCode.INVALID_REPLICATION_FACTOR, "larger than 0", create(Topic.of("rf-2", 1, -2)));
        assertError(ErrorCode.INVALID_REPLICATION_FACTOR, "at most 32767", create(Topic.of("rfbig", 1, 32768)));
        assertError(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition 4 time(s): The target "
                + "replication factor of 4 cannot be reached because only 3 broker(s) are registered.",
                create(Topic.of("rf4", 1, 4)));
        assertCreated(create(Topic.of("rf3", 1, 3)), 1, 3);
    }

    @Test
    void minusOneTakesTheControllerDefaults() {
        ControllerFixture custom = new ControllerFixture();
        custom.addBrokers(3);
        ReplicationControlManager withDefaults = new ReplicationControlManager(custom.state,
                new ReplicationDefaults(4, 2), CreateTopicPolicy.NONE, new java.util.SplittableRandom(1));
        TopicResult result = custom.apply(withDefaults.createTopics(new CreateTopicsRequest(
                List.of(Topic.of("d", -1, -1)), false))).topic("d");
        assertEquals(4, result.numPartitions());
        assertEquals(2, result.replicationFactor());
        assertCreated(create(Topic.of("kafka-defaults", -1, -1)), 1, 1);
    }

    @Test
    void configsAreCheckedByNameTypeAndRange() {
        assertError(ErrorCode.INVALID_CONFIG, "Unknown topic config name: no.such.config",
                create(Topic.of("c1", 1, 1).withConfigs(List.of(new Config("no.such.config", "1")))));
        assertError(ErrorCode.INVALID_CONFIG, "Invalid value notanumber for configuration retention.ms: Not a number "
                + "of type LONG", create(Topic.of("c2", 1, 1).withConfigs(List.of(new Config("retention.ms", "notanumber")))));
        assertError(ErrorCode.INVALID_CONFIG, "Invalid value 0 for configuration min.insync.replicas: Value must be at "
                + "least 1", create(Topic.of("c3", 1, 1).withConfigs(List.of(new Config("min.insync.replicas", "0")))));
        assertError(ErrorCode.INVALID_CONFIG, "cleanup.policy: String must be one of: compact, delete",
                create(Topic.of("c4", 1, 1).withConfigs(List.of(new Config("cleanup.policy", "forever")))));
        assertError(ErrorCode.INVALID_CONFIG, "preallocate", create(Topic.of("c5", 1, 1)
                .withConfigs(List.of(new Config("preallocate", "maybe")))));
        assertError(ErrorCode.INVALID_CONFIG, "Config retention.ms has no value", create(Topic.of("c6", 1, 1)
                .withConfigs(List.of(new Config("retention.ms", null)))));
        Map<String, String> good = Map.of("cleanup.policy", "compact,delete", "retention.ms", "-1",
                "min.cleanable.dirty.ratio", "0.1", "compression.type", "zstd", "leader.replication.throttled.replicas",
                "0:1,1:2");
        TopicResult ok = create(Topic.of("c7", 1, 1).withConfigs(good.entrySet().stream()
                .map(e -> new Config(e.getKey(), e.getValue())).toList()));
        assertCreated(ok, 1, 1);
        assertEquals(good, ok.configs());
        assertEquals(good, fixture.image().configs().configs(ConfigResource.topic("c7")));
    }

    @Test
    void thePolicyMayRefuseWithPolicyViolation() {
        ControllerFixture withPolicy = new ControllerFixture(request -> request.numPartitions() < 10
                ? Optional.of("Topics need at least 10 partitions, " + request.topic() + " asks for "
                + request.numPartitions() + ".") : Optional.empty(), 3);
        withPolicy.addBrokers(1);
        CreateTopicsResponse response = withPolicy.apply(withPolicy.replication.createTopics(new CreateTopicsRequest(
                List.of(Topic.of("small", 2, 1), Topic.of("big", 10, 1)), false)));
        assertError(ErrorCode.POLICY_VIOLATION, "Topics need at least 10 partitions, small asks for 2.",
                response.topic("small"));
        assertEquals(ApiError.NONE, response.topic("big").error());
    }

    @Test
    void validateOnlyRunsEveryCheckAndWritesNothing() {
        ControllerResult<CreateTopicsResponse> result = fixture.replication.createTopics(new CreateTopicsRequest(
                List.of(Topic.of("v", 3, 3), Topic.of("bad", 1, 4)), true));
        assertTrue(result.records().isEmpty());
        assertEquals(ApiError.NONE, result.response().topic("v").error());
        assertEquals(3, result.response().topic("v").numPartitions());
        assertEquals(ErrorCode.INVALID_REPLICATION_FACTOR, result.response().topic("bad").error().code());
    }

    @Test
    void aBatchOfFiveWithADuplicateAndAnInvalidOneAnswersEachName() {
        CreateTopicsResponse response = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(
                Topic.of("b1", 1, 1), Topic.of("b2", 2, 2), Topic.of("b1", 1, 1), Topic.of("bad name", 1, 1),
                Topic.of("b3", 3, 3)), false)));
        assertEquals(List.of("b1", "b2", "bad name", "b3"), response.topics().stream().map(TopicResult::name).toList());
        assertEquals(ErrorCode.INVALID_REQUEST, response.topic("b1").error().code());
        assertEquals(ErrorCode.INVALID_TOPIC_EXCEPTION, response.topic("bad name").error().code());
        assertCreated(response.topic("b2"), 2, 2);
        assertCreated(response.topic("b3"), 3, 3);
        assertEquals(2, fixture.image().topics().topicCount());
    }

    @Test
    void aTopicThatWouldTakeTheRequestPastTheRecordLimitFailsAlone() {
        CreateTopicsResponse response = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(
                Topic.of("big1", 6_000, 1), Topic.of("big2", 6_000, 1), Topic.of("small", 10, 1)), false)));
        assertCreated(response.topic("big1"), 6_000, 1);
        assertError(ErrorCode.POLICY_VIOLATION, "past 10000 records", response.topic("big2"));
        assertCreated(response.topic("small"), 10, 1);
        assertEquals(6_012, fixture.log.size() - 6, "only big1's and small's records, after the brokers' 6");
    }

    @Test
    void topicIdsAreRandomFromTheSeedNeverReservedAndDistinct() {
        CreateTopicsResponse first = fixture.apply(fixture.replication.createTopics(new CreateTopicsRequest(List.of(
                Topic.of("i1", 1, 1), Topic.of("i2", 1, 1)), false)));
        assertNotEquals(first.topic("i1").topicId(), first.topic("i2").topicId());
        for (TopicResult t : first.topics()) {
            assertNotEquals(TopicIds.ZERO, t.topicId());
            assertNotEquals(TopicIds.METADATA_TOPIC_ID, t.topicId());
            assertTrue(!TopicIds.toBase64(t.topicId()).startsWith("-"));
        }
        ControllerFixture again = new ControllerFixture();
        again.addBrokers(3);
        CreateTopicsResponse replayed = again.apply(again.replication.createTopics(new CreateTopicsRequest(List.of(
                Topic.of("i1", 1, 1), Topic.of("i2", 1, 1)), false)));
        assertEquals(first, replayed, "same seed, same ids and placement");
        assertEquals(fixture.image(), again.image());
    }
}
