package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreatePartitionsResponse;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CreateTopics, DeleteTopics and CreatePartitions through the adapters, brokers 1-3 unfenced. */
class TopicWriteHandlersTest {
    private static final short CREATE_LATEST = ApiKeys.CREATE_TOPICS.latestVersion();

    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.DISABLED).brokers(1, 2, 3);
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    private CreateTopicsResponseData create(short version, boolean validateOnly, CreatableTopic... topics) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(5_000).setValidateOnly(validateOnly);
        for (CreatableTopic topic : topics) {
            data.topics().add(topic.duplicate());
        }
        return kafka.<CreateTopicsResponse>call(data, version).data();
    }

    @Test
    void aCreatedTopicComesBackWithItsIdCountsAndConfigs() {
        CreatableTopic orders = KafkaHarness.topic("orders", 3, 2);
        orders.configs().add(new CreatableTopicConfig().setName("retention.ms").setValue("60000"));
        CreatableTopicResult result = create(CREATE_LATEST, false, orders).topics().find("orders");
        assertEquals(Errors.NONE.code(), result.errorCode());
        assertNull(result.errorMessage());
        assertNotEquals(Uuid.ZERO_UUID, result.topicId());
        assertEquals(3, result.numPartitions());
        assertEquals(2, result.replicationFactor());
        assertEquals(Errors.NONE.code(), result.topicConfigErrorCode());
        CreatableTopicConfigs retention = result.configs().stream().filter(c -> c.name().equals("retention.ms"))
                .findFirst().orElseThrow();
        assertEquals("60000", retention.value());
        assertEquals(1, retention.configSource(), "DYNAMIC_TOPIC_CONFIG");
        CreatableTopicConfigs segment = result.configs().stream().filter(c -> c.name().equals("segment.ms"))
                .findFirst().orElseThrow();
        assertEquals(5, segment.configSource(), "DEFAULT_CONFIG");
    }

    @Test
    void minusOneTakesTheDefaultsAndValidateOnlyCreatesNothing() {
        CreatableTopic defaults = KafkaHarness.topic("d", -1, -1);
        CreatableTopicResult checked = create(CREATE_LATEST, true, defaults).topics().find("d");
        assertEquals(Errors.NONE.code(), checked.errorCode());
        assertEquals(Uuid.ZERO_UUID, checked.topicId());
        assertEquals(1, checked.numPartitions());
        assertEquals(1, checked.replicationFactor());
        assertEquals(0, kafka.node.image().topics().topicCount());
        assertEquals(Errors.NONE.code(), create(CREATE_LATEST, false, defaults).topics().find("d").errorCode());
    }

    @Test
    void perTopicErrorsBecomeTheExceptionsKafkasClientRaises() {
        kafka.create(KafkaHarness.topic("orders", 1, 1));
        CreateTopicsResponseData answer = create(CREATE_LATEST, false, KafkaHarness.topic("orders", 1, 1),
                KafkaHarness.topic("wide", 1, 4), KafkaHarness.topic("fine", 1, 1));
        CreatableTopicResult exists = answer.topics().find("orders");
        assertEquals(Errors.TOPIC_ALREADY_EXISTS.code(), exists.errorCode());
        assertEquals("Topic 'orders' already exists.", exists.errorMessage());
        assertEquals(-1, exists.numPartitions());
        assertEquals(-1, exists.replicationFactor());
        assertTrue(exists.configs().isEmpty());
        assertInstanceOf(TopicExistsException.class, Errors.forCode(exists.errorCode()).exception(exists.errorMessage()));
        CreatableTopicResult wide = answer.topics().find("wide");
        assertInstanceOf(InvalidReplicationFactorException.class, Errors.forCode(wide.errorCode()).exception());
        assertEquals(Errors.NONE.code(), answer.topics().find("fine").errorCode());
    }

    @Test
    void olderVersionsCarryOnlyTheNameAndError() {
        CreateTopicsResponseData v4 = create((short) 4, false, KafkaHarness.topic("old", 2, 1));
        CreatableTopicResult old = v4.topics().find("old");
        assertEquals(Errors.NONE.code(), old.errorCode());
        assertEquals(-1, old.numPartitions(), "not on the wire before v5");
        assertEquals(Uuid.ZERO_UUID, old.topicId(), "not on the wire before v7");
    }

    @Test
    void aRequestRefusedAtTheEdgeGivesEveryTopicTheRefusal() {
        CreatableTopic negative = new CreatableTopic().setName("t").setNumPartitions(-1)
                .setReplicationFactor((short) -1);
        negative.assignments().add(new CreatableReplicaAssignment().setPartitionIndex(0).setBrokerIds(List.of(-3)));
        CreateTopicsResponseData answer = create(CREATE_LATEST, false, negative, KafkaHarness.topic("u", 1, 1));
        assertEquals(2, answer.topics().size());
        for (CreatableTopicResult result : answer.topics()) {
            assertEquals(Errors.INVALID_REQUEST.code(), result.errorCode());
            assertTrue(result.errorMessage().startsWith("topics[0].assignments[0].broker_ids[0] is -3"),
                    result.errorMessage());
        }
    }

    @Test
    void deleteByNameInEveryVersionAndByIdFromSix() {
        Uuid aId = kafka.create(KafkaHarness.topic("a", 1, 1), KafkaHarness.topic("b", 1, 1),
                KafkaHarness.topic("c", 1, 1)).topics().find("a").topicId();
        DeleteTopicsResponseData v1 = kafka.<DeleteTopicsResponse>call(new DeleteTopicsRequestData()
                .setTopicNames(List.of("b", "ghost")).setTimeoutMs(5_000), (short) 1).data();
        assertEquals(Errors.NONE.code(), v1.responses().find("b").errorCode());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), v1.responses().find("ghost").errorCode());
        assertNull(v1.responses().find("ghost").errorMessage(), "no message before v5");
        DeleteTopicsResponseData v5 = kafka.<DeleteTopicsResponse>call(new DeleteTopicsRequestData()
                .setTopicNames(List.of("ghost")).setTimeoutMs(5_000), (short) 5).data();
        assertEquals("The topic 'ghost' does not exist.", v5.responses().find("ghost").errorMessage());

        Uuid unknown = new Uuid(3, 3);
        DeleteTopicsResponseData v6 = kafka.<DeleteTopicsResponse>call(new DeleteTopicsRequestData().setTopics(List.of(
                new DeleteTopicState().setTopicId(aId), new DeleteTopicState().setTopicId(unknown),
                new DeleteTopicState().setName("c").setTopicId(new Uuid(1, 1)), new DeleteTopicState()))
                .setTimeoutMs(5_000), ApiKeys.DELETE_TOPICS.latestVersion()).data();
        assertEquals(4, v6.responses().size());
        DeletableTopicResult a = byId(v6, aId);
        assertEquals("a", a.name());
        assertEquals(Errors.NONE.code(), a.errorCode());
        DeletableTopicResult missing = byId(v6, unknown);
        assertNull(missing.name());
        assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), missing.errorCode());
        assertEquals(2, v6.responses().stream().filter(r -> r.errorCode() == Errors.INVALID_REQUEST.code()).count(),
                "a name and an id, or neither");
        kafka.node.awaitImage(() -> kafka.node.image().topics().topicCount() == 1);
        assertEquals("c", kafka.node.image().topics().topicsFrom("").next().name());
    }

    private static DeletableTopicResult byId(DeleteTopicsResponseData data, Uuid id) {
        return data.responses().stream().filter(r -> r.topicId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void createPartitionsGrowsChecksAndValidates() {
        kafka.create(KafkaHarness.topic("t", 1, 1));
        CreatePartitionsRequestData grow = new CreatePartitionsRequestData().setTimeoutMs(5_000).setValidateOnly(true);
        grow.topics().add(new CreatePartitionsTopic().setName("t").setCount(3).setAssignments(null));
        grow.topics().add(new CreatePartitionsTopic().setName("ghost").setCount(2).setAssignments(null));
        List<CreatePartitionsTopicResult> checked = kafka.<CreatePartitionsResponse>call(grow,
                ApiKeys.CREATE_PARTITIONS.latestVersion()).data().results();
        assertEquals(Errors.NONE.code(), checked.get(0).errorCode());
        assertNull(checked.get(0).errorMessage());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), checked.get(1).errorCode());
        assertEquals(1, kafka.node.image().topics().topic("t").partitionCount(), "validate_only");

        CreatePartitionsRequestData placed = new CreatePartitionsRequestData().setTimeoutMs(5_000);
        placed.topics().add(new CreatePartitionsTopic().setName("t").setCount(3).setAssignments(List.of(
                new CreatePartitionsAssignment().setBrokerIds(List.of(2)),
                new CreatePartitionsAssignment().setBrokerIds(List.of(3)))));
        CreatePartitionsTopicResult grown = kafka.<CreatePartitionsResponse>call(placed, (short) 0).data().results()
                .get(0);
        assertEquals(Errors.NONE.code(), grown.errorCode());
        kafka.node.awaitImage(() -> kafka.node.image().topics().topic("t").partitionCount() == 3);
        assertEquals(3, kafka.node.image().topics().topic("t").partition(2).leader());

        CreatePartitionsRequestData shrink = new CreatePartitionsRequestData().setTimeoutMs(5_000);
        shrink.topics().add(new CreatePartitionsTopic().setName("t").setCount(2).setAssignments(null));
        CreatePartitionsTopicResult refused = kafka.<CreatePartitionsResponse>call(shrink, (short) 3).data()
                .results().get(0);
        assertEquals(Errors.INVALID_PARTITIONS.code(), refused.errorCode());
        assertTrue(refused.errorMessage() != null && !refused.errorMessage().isEmpty());
    }
}
