package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import io.metaquorum.server.admin.AdminRequestsNode;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsRequestData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.DescribeTopicPartitionsResponse;
import org.apache.kafka.common.requests.ListPartitionReassignmentsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The adapters with the authorizer on: a super user sets up topics orders and payments and
 * gives alice DESCRIBE on orders and CREATE on the topic mine; alice then asks as a Kafka client.
 */
class TopicAuthorizationTest {
    private static final CallOrigin ADMIN = CallOrigin.CLIENT.by(new Caller(Principal.user("admin"), "127.0.0.1"));
    private static final CallOrigin ALICE = CallOrigin.CLIENT.by(new Caller(Principal.user("alice"), "127.0.0.1"));

    private KafkaHarness kafka;

    @BeforeEach
    void start() {
        kafka = new KafkaHarness(NodeAccess.enabled(new AuthorizerSettings(Set.of("User:admin"), false),
                decision -> { })).brokers(ADMIN, 1, 2, 3);
        CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(5_000);
        create.topics().add(KafkaHarness.topic("orders", 1, 1));
        create.topics().add(KafkaHarness.topic("payments", 1, 1));
        kafka.<CreateTopicsResponse>call(create, ApiKeys.CREATE_TOPICS.latestVersion(), ADMIN).data().topics()
                .forEach(t -> assertEquals(Errors.NONE.code(), t.errorCode(), t.toString()));
        CreateAclsRequest acls = CreateAclsRequest.newBuilder().addCreations(allow("orders", AclOperation.DESCRIBE))
                .addCreations(allow("mine", AclOperation.CREATE)).build();
        CreateAclsResponse created = AdminRequestsNode.await(reply -> kafka.node.admin().createAcls(acls, ADMIN,
                reply));
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.toString());
        kafka.node.awaitImage(() -> kafka.node.image().lastCommittedOffset() >= created.getCommitOffset()
                && kafka.node.image().topics().topicCount() == 2);
    }

    private static AclCreation allow(String topic, AclOperation operation) {
        return AclCreation.newBuilder().setResourceType(ResourceType.TOPIC.code()).setResourceName(topic)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal("User:alice").setHost("*")
                .setOperation(operation.code()).setPermissionType(PermissionType.ALLOW.code()).build();
    }

    @AfterEach
    void stop() throws Exception {
        kafka.close();
    }

    @Test
    void metadataListsOnlyWhatTheCallerMayDescribeAndRefusesNamedOthersWhetherOrNotTheyExist() {
        MetadataResponseData all = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(null)
                .setAllowAutoTopicCreation(false), ApiKeys.METADATA.latestVersion(), ALICE).data();
        assertEquals(List.of("orders"), all.topics().stream().map(MetadataResponseTopic::name).toList());
        assertEquals(List.of(1, 2, 3), all.brokers().stream().map(b -> b.nodeId()).toList(),
                "brokers need no right");
        MetadataResponseData named = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(List.of(
                new MetadataRequestTopic().setName("payments"), new MetadataRequestTopic().setName("ghost"),
                new MetadataRequestTopic().setName("orders"))).setAllowAutoTopicCreation(false),
                ApiKeys.METADATA.latestVersion(), ALICE).data();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), named.topics().find("payments").errorCode());
        assertEquals(Uuid.ZERO_UUID, named.topics().find("payments").topicId());
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), named.topics().find("ghost").errorCode());
        assertEquals(Errors.NONE.code(), named.topics().find("orders").errorCode());
    }

    @Test
    void aPartlyAuthorizedCreateCreatesWhatItMayAndHidesWhatItMayNotSee() {
        for (short version : new short[] {4, 5, ApiKeys.CREATE_TOPICS.latestVersion()}) {
            CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(5_000).setValidateOnly(true);
            create.topics().add(KafkaHarness.topic("mine", 2, 1));
            create.topics().add(KafkaHarness.topic("theirs", 1, 1));
            CreateTopicsResponseData answer = kafka.<CreateTopicsResponse>call(create, version, ALICE).data();
            CreatableTopicResult mine = answer.topics().find("mine");
            assertEquals(Errors.NONE.code(), mine.errorCode(), "v" + version);
            assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), answer.topics().find("theirs").errorCode());
            if (version >= 5) {
                assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), mine.topicConfigErrorCode(),
                        "alice may not DESCRIBE_CONFIGS mine");
                assertEquals(-1, mine.numPartitions());
            }
        }
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTopicNames(List.of("payments"))
                .setTimeoutMs(5_000);
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), kafka.<DeleteTopicsResponse>call(delete, (short) 5,
                ALICE).data().responses().find("payments").errorCode());
    }

    /** Kafka answers DescribeCluster to anyone (its AdminClient asks it on the way to describing topics). */
    @Test
    void describeClusterNeedsNoRightAndListPartitionReassignmentsNeedsDescribeOnTheCluster() {
        DescribeClusterResponseData asAlice = kafka.<DescribeClusterResponse>call(new DescribeClusterRequestData(),
                (short) 2, ALICE).data();
        assertEquals(Errors.NONE.code(), asAlice.errorCode());
        assertEquals(kafka.<DescribeClusterResponse>call(new DescribeClusterRequestData(), (short) 2, ADMIN).data(),
                asAlice, "the same answer for a caller without rights as for the admin");
        ListPartitionReassignmentsRequestData list = new ListPartitionReassignmentsRequestData().setTopics(null);
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), kafka.<ListPartitionReassignmentsResponse>call(list,
                (short) 0, ALICE).data().errorCode());
        assertEquals(Errors.NONE.code(), kafka.<ListPartitionReassignmentsResponse>call(list, (short) 0, ADMIN)
                .data().errorCode());
    }

    /** Kafka's cluster_authorized_operations: asked for, none without DESCRIBE on the cluster. */
    @Test
    void clusterAuthorizedOperationsAreNoneWithoutDescribeOnTheClusterAndWhatIsHeldWithIt() {
        DescribeClusterRequestData asking = new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true);
        assertEquals(0, kafka.<DescribeClusterResponse>call(asking, (short) 2, ALICE).data()
                .clusterAuthorizedOperations());
        int every = 0;
        for (AclOperation operation : List.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
                AclOperation.ALTER, AclOperation.DESCRIBE)) {
            every |= 1 << operation.code();
        }
        assertEquals(every, kafka.<DescribeClusterResponse>call(asking, (short) 2, ADMIN).data()
                .clusterAuthorizedOperations(), "a super user holds every cluster operation");
        grantOnCluster(AclOperation.ALTER);
        assertEquals(1 << AclOperation.ALTER.code() | 1 << AclOperation.DESCRIBE.code(),
                kafka.<DescribeClusterResponse>call(asking, (short) 2, ALICE).data().clusterAuthorizedOperations(),
                "ALTER implies DESCRIBE");
        assertEquals(Integer.MIN_VALUE, kafka.<DescribeClusterResponse>call(new DescribeClusterRequestData(),
                (short) 2, ALICE).data().clusterAuthorizedOperations(), "not asked");
    }

    /** Kafka's rule: a describable topic that does not exist is named so, whatever else is missing. */
    @Test
    void deleteTopicsTellsADescribableCallerThatATopicDoesNotExist() {
        grant(ResourceType.TOPIC, "gone", AclOperation.DESCRIBE);
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTopicNames(List.of("gone", "orders",
                "nowhere")).setTimeoutMs(5_000);
        var answer = kafka.<DeleteTopicsResponse>call(delete, (short) 5, ALICE).data().responses();
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), answer.find("gone").errorCode(),
                "DESCRIBE on a topic that does not exist");
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), answer.find("orders").errorCode(),
                "DESCRIBE without DELETE on one that exists");
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), answer.find("nowhere").errorCode(),
                "no DESCRIBE: nothing is told");
    }

    /** Kafka's topic_authorized_operations: what the caller holds, beside a topic it may DESCRIBE only. */
    @Test
    void topicAuthorizedOperationsAreGivenOnlyBesideADescribableTopic() {
        MetadataResponseData metadata = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(List.of(
                new MetadataRequestTopic().setName("orders"), new MetadataRequestTopic().setName("payments")))
                .setAllowAutoTopicCreation(false).setIncludeTopicAuthorizedOperations(true),
                ApiKeys.METADATA.latestVersion(), ALICE).data();
        assertEquals(1 << AclOperation.DESCRIBE.code(), metadata.topics().find("orders").topicAuthorizedOperations());
        assertEquals(Integer.MIN_VALUE, metadata.topics().find("payments").topicAuthorizedOperations());
        DescribeTopicPartitionsRequestData named = new DescribeTopicPartitionsRequestData();
        named.topics().add(new DescribeTopicPartitionsRequestData.TopicRequest().setName("orders"));
        named.topics().add(new DescribeTopicPartitionsRequestData.TopicRequest().setName("payments"));
        DescribeTopicPartitionsResponseData described = kafka.<DescribeTopicPartitionsResponse>call(named, (short) 0,
                ALICE).data();
        assertEquals(1 << AclOperation.DESCRIBE.code(), described.topics().find("orders").topicAuthorizedOperations());
        assertEquals(Integer.MIN_VALUE, described.topics().find("payments").topicAuthorizedOperations());
        MetadataResponseData v10 = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(List.of())
                .setAllowAutoTopicCreation(false).setIncludeClusterAuthorizedOperations(true), (short) 10, ALICE)
                .data();
        assertEquals(0, v10.clusterAuthorizedOperations(), "Metadata v8-10: none without DESCRIBE on the cluster");
    }

    /** A topic refused by id is named only to a caller that may DESCRIBE it, as Kafka answers. */
    @Test
    void aDeleteRefusedByIdNamesTheTopicOnlyToACallerThatMayDescribeIt() {
        MetadataResponseData ids = kafka.<MetadataResponse>call(new MetadataRequestData().setTopics(null)
                .setAllowAutoTopicCreation(false), ApiKeys.METADATA.latestVersion(), ADMIN).data();
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTimeoutMs(5_000);
        for (String topic : List.of("orders", "payments")) {
            delete.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setTopicId(ids.topics().find(topic)
                    .topicId()));
        }
        var answer = kafka.<DeleteTopicsResponse>call(delete, ApiKeys.DELETE_TOPICS.latestVersion(), ALICE).data()
                .responses();
        assertEquals(2, answer.size());
        for (var result : answer) {
            assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), result.errorCode(), result.toString());
        }
        assertEquals(Set.of("orders"), answer.stream().map(r -> r.name()).filter(java.util.Objects::nonNull)
                .collect(java.util.stream.Collectors.toSet()), "alice may DESCRIBE orders, not payments");
    }

    private void grantOnCluster(AclOperation operation) {
        grant(ResourceType.CLUSTER, "kafka-cluster", operation);
    }

    private void grant(ResourceType type, String name, AclOperation operation) {
        CreateAclsRequest acls = CreateAclsRequest.newBuilder().addCreations(AclCreation.newBuilder()
                .setResourceType(type.code()).setResourceName(name)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal("User:alice").setHost("*")
                .setOperation(operation.code()).setPermissionType(PermissionType.ALLOW.code())).build();
        CreateAclsResponse created = AdminRequestsNode.await(reply -> kafka.node.admin().createAcls(acls, ADMIN,
                reply));
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.toString());
        kafka.node.awaitImage(() -> kafka.node.image().lastCommittedOffset() >= created.getCommitOffset());
    }

    @Test
    void aCallerAheadOfThisNodesImageIsRefusedWithACodeKafkasClientKnows() {
        CallOrigin ahead = ALICE.afterAclChange(Long.MAX_VALUE);
        MetadataRequestData named = new MetadataRequestData().setTopics(List.of(new MetadataRequestTopic()
                .setName("orders"))).setAllowAutoTopicCreation(false);
        MetadataResponseData latest = kafka.<MetadataResponse>call(named, ApiKeys.METADATA.latestVersion(), ahead)
                .data();
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), latest.errorCode(), "v13 has a top-level error");
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), latest.topics().find("orders").errorCode());
        MetadataResponseData v12 = kafka.<MetadataResponse>call(named, (short) 12, ahead).data();
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), v12.topics().find("orders").errorCode());
        assertEquals(List.of(1, 2, 3), v12.brokers().stream().map(b -> b.nodeId()).toList());
    }

    @Test
    void describeTopicPartitionsLeavesOutOrRefusesWhatTheCallerMayNotDescribe() {
        DescribeTopicPartitionsResponseData all = kafka.<DescribeTopicPartitionsResponse>call(
                new DescribeTopicPartitionsRequestData(), (short) 0, ALICE).data();
        assertEquals(1, all.topics().size());
        assertEquals("orders", all.topics().iterator().next().name());
        DescribeTopicPartitionsRequestData named = new DescribeTopicPartitionsRequestData();
        named.topics().add(new DescribeTopicPartitionsRequestData.TopicRequest().setName("payments"));
        DescribeTopicPartitionsResponseData refused = kafka.<DescribeTopicPartitionsResponse>call(named, (short) 0,
                ALICE).data();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), refused.topics().find("payments").errorCode());
        assertEquals(Uuid.ZERO_UUID, refused.topics().find("payments").topicId());
    }
}
