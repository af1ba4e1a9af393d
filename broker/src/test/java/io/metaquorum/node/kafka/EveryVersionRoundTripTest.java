package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every API {@link TopicApis} registers, at every version Kafka's client library knows for it,
 * answered on a cluster with topics, configs and errors in it, so that every version-dependent
 * field is set somewhere: the harness writes each response at its version and parses it back
 * (Kafka refuses to write a field the version cannot carry), and nothing in it is an
 * UNSUPPORTED_VERSION or an unknown server error.
 */
class EveryVersionRoundTripTest {
    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.DISABLED).brokers(1, 2, 3);
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    /** One request per API, for a version; each call makes its own topic names so versions do not collide. */
    private static Map<ApiKeys, Function<Short, ApiMessage>> requests() {
        Map<ApiKeys, Function<Short, ApiMessage>> out = new EnumMap<>(ApiKeys.class);
        out.put(ApiKeys.METADATA, v -> new MetadataRequestData().setAllowAutoTopicCreation(v < 4)
                .setTopics(v == 0 ? List.of() : List.of(new MetadataRequestTopic().setName("kept"),
                        new MetadataRequestTopic().setName("ghost"))));
        out.put(ApiKeys.DESCRIBE_CLUSTER, v -> new DescribeClusterRequestData().setIncludeFencedBrokers(v >= 2));
        out.put(ApiKeys.CREATE_TOPICS, v -> {
            CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(5_000);
            CreatableTopic topic = KafkaHarness.topic("created-v" + v, 2, 2);
            topic.configs().add(new CreatableTopicConfig().setName("cleanup.policy").setValue("compact"));
            data.topics().add(topic);
            data.topics().add(KafkaHarness.topic("kept", 1, 1));
            return data;
        });
        out.put(ApiKeys.DELETE_TOPICS, v -> {
            DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(5_000);
            if (v < 6) {
                return data.setTopicNames(List.of("created-v" + (v + 1), "ghost"));
            }
            return data.setTopics(List.of(new DeleteTopicState().setName("created-v7"),
                    new DeleteTopicState().setName("ghost")));
        });
        out.put(ApiKeys.CREATE_PARTITIONS, v -> {
            CreatePartitionsRequestData data = new CreatePartitionsRequestData().setTimeoutMs(5_000);
            data.topics().add(new CreatePartitionsTopic().setName("grown").setCount(2 + v).setAssignments(null));
            data.topics().add(new CreatePartitionsTopic().setName("ghost").setCount(2).setAssignments(null));
            return data;
        });
        out.put(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, v -> new DescribeTopicPartitionsRequestData()
                .setResponsePartitionLimit(1));
        out.put(ApiKeys.LIST_PARTITION_REASSIGNMENTS, v -> new ListPartitionReassignmentsRequestData());
        return out;
    }

    @Test
    void everyRegisteredApiAnswersAtEveryVersionItAdvertises() {
        kafka.create(KafkaHarness.topic("kept", 1, 1), KafkaHarness.topic("grown", 1, 1));
        Map<ApiKeys, KafkaApiHandler> registered = new EnumMap<>(ApiKeys.class);
        TopicApis.register(registered, kafka.node.admin(), 1);
        Map<ApiKeys, Function<Short, ApiMessage>> requests = requests();
        assertEquals(requests.keySet(), registered.keySet(), "a request here for every registered API");
        for (Map.Entry<ApiKeys, Function<Short, ApiMessage>> api : requests.entrySet()) {
            ApiKeys key = api.getKey();
            for (short version = key.oldestVersion(); version <= key.latestVersion(); version++) {
                AbstractResponse response = kafka.call(api.getValue().apply(version), version);
                Map<Errors, Integer> errors = response.errorCounts();
                String where = key + " v" + version + ": " + response.data();
                assertTrue(!errors.containsKey(Errors.UNSUPPORTED_VERSION), where);
                assertTrue(!errors.containsKey(Errors.UNKNOWN_SERVER_ERROR), where);
                assertTrue(!errors.containsKey(Errors.INVALID_REQUEST), where);
                assertTrue(errors.getOrDefault(Errors.NONE, 0) > 0 || key == ApiKeys.LIST_PARTITION_REASSIGNMENTS
                        || errors.isEmpty(), where);
            }
        }
    }
}
