package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.node.admin.CallOrigin;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Metadata through the adapter: brokers 1-3 unfenced with the Kafka listener, broker 4 unfenced
 * without it (only the gRPC one), broker 5 registered but fenced.
 */
class MetadataHandlerTest {
    private static final short LATEST = ApiKeys.METADATA.latestVersion();

    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.DISABLED).brokers(1, 2, 3);
        kafka.node.register(4, List.of(KafkaHarness.endpoint(KafkaHarness.GRPC, 9004)), false, CallOrigin.CLIENT);
        kafka.node.register(5, KafkaHarness.listeners(5), true, CallOrigin.CLIENT);
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    private MetadataResponseData metadata(short version, List<MetadataRequestTopic> topics) {
        MetadataResponse response = kafka.call(new MetadataRequestData().setTopics(topics)
                .setAllowAutoTopicCreation(version < 4), version);
        return response.data();
    }

    private static MetadataRequestTopic named(String name) {
        return new MetadataRequestTopic().setName(name);
    }

    @Test
    void listsTheUnfencedBrokersOnTheListenerAndAControllerAmongThem() {
        MetadataResponseData answer = metadata(LATEST, List.of());
        assertEquals(List.of(1, 2, 3), answer.brokers().stream().map(MetadataResponseBroker::nodeId).toList());
        MetadataResponseBroker two = answer.brokers().find(2);
        assertEquals("broker19.example", two.host());
        assertEquals(19092, two.port());
        assertEquals("rack-b", two.rack());
        assertNull(answer.brokers().find(1).rack());
        assertEquals("test-cluster", answer.clusterId());
        assertEquals(1, answer.controllerId(), "this node is a listed broker");
        assertTrue(answer.topics().isEmpty(), "an empty list asks for no topics");
        assertEquals(Errors.NONE.code(), answer.errorCode());

        MetadataResponse onGrpc = kafka.call(new MetadataRequestData().setTopics(List.of()), LATEST,
                CallOrigin.CLIENT, KafkaHarness.GRPC);
        assertEquals(List.of(1, 2, 3, 4), onGrpc.data().brokers().stream().map(MetadataResponseBroker::nodeId)
                .toList(), "the brokers with an endpoint on the caller's listener");
    }

    @Test
    void aNodeThatIsNotAListedBrokerReportsTheLowestListedOneAsController() throws Exception {
        try (KafkaHarness other = new KafkaHarness(NodeAccess.DISABLED, 9)) {
            MetadataResponse none = other.call(new MetadataRequestData().setTopics(List.of()), LATEST);
            assertEquals(-1, none.data().controllerId(), "no broker listed");
            other.brokers(3, 2);
            MetadataResponse some = other.call(new MetadataRequestData().setTopics(List.of()), LATEST);
            assertEquals(2, some.data().controllerId());
            assertEquals(2, some.controller().id(), "Kafka's client finds the controller among the brokers");
        }
    }

    @Test
    void everyTopicByNullListOrByEmptyListInVersionZero() {
        kafka.create(KafkaHarness.topic("orders", 3, 2), KafkaHarness.topic("payments", 1, 1));
        for (short version = 1; version <= LATEST; version++) {
            MetadataResponseData answer = metadata(version, null);
            assertEquals(List.of("orders", "payments"), answer.topics().stream().map(MetadataResponseTopic::name)
                    .toList(), "v" + version);
        }
        assertEquals(2, metadata((short) 0, List.of()).topics().size(), "v0: an empty list is every topic");
        MetadataResponseTopic orders = metadata(LATEST, null).topics().find("orders");
        assertEquals(Errors.NONE.code(), orders.errorCode());
        assertEquals(3, orders.partitions().size());
        assertTrue(!orders.topicId().equals(Uuid.ZERO_UUID));
        for (MetadataResponsePartition p : orders.partitions()) {
            PartitionRegistration registered = kafka.node.image().topics().topic("orders").partition(p.partitionIndex());
            assertEquals(2, p.replicaNodes().size());
            assertEquals(registered.leaderEpoch(), p.leaderEpoch());
            assertEquals(p.replicaNodes(), p.isrNodes());
            assertEquals(p.replicaNodes().stream().filter(b -> b == 4).toList(), p.offlineReplicas(),
                    "broker 4 has no endpoint on the listener");
            if (registered.leader() == 4) {
                assertEquals(Errors.LISTENER_NOT_FOUND.code(), p.errorCode());
                assertEquals(-1, p.leaderId());
            } else {
                assertEquals(Errors.NONE.code(), p.errorCode());
                assertEquals(registered.leader(), p.leaderId());
                assertEquals(p.replicaNodes().get(0), p.leaderId());
            }
        }
    }

    @Test
    void namedTopicsUnknownOrIllegalAreAnsweredWithoutCreatingThem() {
        kafka.create(KafkaHarness.topic("orders", 1, 1));
        MetadataResponseData answer = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(List.of(
                named("orders"), named("ghost"), named("bad name!"), named("orders")))
                .setAllowAutoTopicCreation(true), LATEST).data();
        assertEquals(3, answer.topics().size(), "one answer per distinct name");
        assertEquals(Errors.NONE.code(), answer.topics().find("orders").errorCode());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), answer.topics().find("ghost").errorCode());
        assertEquals(Uuid.ZERO_UUID, answer.topics().find("ghost").topicId());
        assertEquals(Errors.INVALID_TOPIC_EXCEPTION.code(), answer.topics().find("bad name!").errorCode());
        assertEquals(1, kafka.node.image().topics().topicCount(), "nothing was created");
    }

    @Test
    void topicsByIdFromVersionTwelve() {
        Uuid id = kafka.create(KafkaHarness.topic("orders", 2, 1)).topics().find("orders").topicId();
        Uuid unknown = new Uuid(7, 7);
        MetadataResponseData answer = metadata(LATEST, List.of(new MetadataRequestTopic().setTopicId(id),
                new MetadataRequestTopic().setTopicId(unknown)));
        assertEquals(2, answer.topics().size());
        MetadataResponseTopic found = answer.topics().stream().filter(t -> t.topicId().equals(id)).findFirst()
                .orElseThrow();
        assertEquals("orders", found.name());
        assertEquals(2, found.partitions().size());
        MetadataResponseTopic missing = answer.topics().stream().filter(t -> t.topicId().equals(unknown))
                .findFirst().orElseThrow();
        assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), missing.errorCode());
        assertNull(missing.name());

        MetadataResponseData refused = metadata((short) 11, List.of(new MetadataRequestTopic().setTopicId(id)
                .setName("orders")));
        assertEquals(Errors.INVALID_REQUEST.code(), refused.topics().iterator().next().errorCode(),
                "v10 and v11 carry ids but may not use them");
    }

    @Test
    void aLeaderWithoutTheListenerIsNotReachableOnIt() {
        kafka.create(new CreatableTopic().setName("far").setNumPartitions(-1).setReplicationFactor((short) -1)
                .setAssignments(new org.apache.kafka.common.message.CreateTopicsRequestData
                        .CreatableReplicaAssignmentCollection(List.of(new CreatableReplicaAssignment()
                        .setPartitionIndex(0).setBrokerIds(List.of(4, 1))).iterator())));
        MetadataResponsePartition latest = metadata(LATEST, List.of(named("far"))).topics().find("far")
                .partitions().get(0);
        assertEquals(Errors.LISTENER_NOT_FOUND.code(), latest.errorCode());
        assertEquals(-1, latest.leaderId());
        assertEquals(List.of(4, 1), latest.replicaNodes());
        assertEquals(List.of(4), latest.offlineReplicas());
        MetadataResponsePartition v5 = metadata((short) 5, List.of(named("far"))).topics().find("far")
                .partitions().get(0);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), v5.errorCode(), "LISTENER_NOT_FOUND is from v6");
        MetadataResponsePartition v0 = metadata((short) 0, List.of(named("far"))).topics().find("far")
                .partitions().get(0);
        assertEquals(List.of(1), v0.replicaNodes(), "v0 lists only the reachable replicas");
        assertEquals(List.of(1), v0.isrNodes());
    }
}
