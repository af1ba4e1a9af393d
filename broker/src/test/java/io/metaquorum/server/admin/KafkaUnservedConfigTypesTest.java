package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Config resources of types Kafka knows and we serve no configs of (BROKER_LOGGER,
 * CLIENT_METRICS, GROUP): Kafka asks its right first, so a caller without it gets Kafka's
 * authorization error, and only one with it learns that nothing is served there. A type Kafka
 * does not know refuses a DescribeConfigs whole.
 */
class KafkaUnservedConfigTypesTest {
    private static final byte BROKER_LOGGER = ConfigResource.Type.BROKER_LOGGER.id();
    private static final byte CLIENT_METRICS = ConfigResource.Type.CLIENT_METRICS.id();
    private static final byte GROUP = ConfigResource.Type.GROUP.id();

    private KafkaApisTestNode node;

    @BeforeEach
    void start() {
        node = new KafkaApisTestNode();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private List<Short> describe(Caller caller, byte... types) throws Exception {
        DescribeConfigsRequestData data = new DescribeConfigsRequestData();
        for (byte type : types) {
            data.resources().add(new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType(type)
                    .setResourceName(type == GROUP ? "payments-app" : "1"));
        }
        DescribeConfigsResponse answer = node.call(caller, new DescribeConfigsRequest.Builder(data)
                .build(ApiKeys.DESCRIBE_CONFIGS.latestVersion()));
        return answer.data().results().stream().map(r -> r.errorCode()).toList();
    }

    private List<Short> alter(Caller caller, byte... types) throws Exception {
        IncrementalAlterConfigsRequestData data = new IncrementalAlterConfigsRequestData();
        for (byte type : types) {
            AlterConfigsResource resource = new AlterConfigsResource().setResourceType(type)
                    .setResourceName(type == GROUP ? "payments-app" : "1");
            resource.configs().add(new AlterableConfig().setName("some.key").setValue("1"));
            data.resources().add(resource);
        }
        IncrementalAlterConfigsResponse answer = node.call(caller, new IncrementalAlterConfigsRequest.Builder(data)
                .build(ApiKeys.INCREMENTAL_ALTER_CONFIGS.latestVersion()));
        return answer.data().responses().stream().map(r -> r.errorCode()).toList();
    }

    private static List<Short> codes(Errors... errors) {
        return Arrays.stream(errors).map(Errors::code).toList();
    }

    @Test
    void withoutTheRightKafkaAsksItsAuthorizationErrorComesFirst() throws Exception {
        List<Short> denied = codes(Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED,
                Errors.GROUP_AUTHORIZATION_FAILED);
        assertEquals(denied, describe(KafkaApisTestNode.MALLORY, BROKER_LOGGER, CLIENT_METRICS, GROUP));
        assertEquals(denied, alter(KafkaApisTestNode.MALLORY, BROKER_LOGGER, CLIENT_METRICS, GROUP));
    }

    @Test
    void withTheRightTheCallerLearnsThatNoSuchConfigsAreServed() throws Exception {
        List<Short> unserved = codes(Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST);
        assertEquals(unserved, describe(KafkaApisTestNode.ADMIN, BROKER_LOGGER, CLIENT_METRICS, GROUP));
        assertEquals(unserved, alter(KafkaApisTestNode.ADMIN, BROKER_LOGGER, CLIENT_METRICS, GROUP));
        grant(ResourceType.CLUSTER, "kafka-cluster");
        grant(ResourceType.GROUP, "payments-app");
        assertEquals(unserved, describe(KafkaApisTestNode.MALLORY, BROKER_LOGGER, CLIENT_METRICS, GROUP),
                "DESCRIBE_CONFIGS on the cluster and on the group");
        assertEquals(codes(Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.CLUSTER_AUTHORIZATION_FAILED,
                Errors.GROUP_AUTHORIZATION_FAILED), alter(KafkaApisTestNode.MALLORY, BROKER_LOGGER, CLIENT_METRICS,
                GROUP), "DESCRIBE_CONFIGS does not allow ALTER_CONFIGS");
    }

    @Test
    void aTypeKafkaDoesNotKnowRefusesTheWholeDescribe() throws Exception {
        assertEquals(codes(Errors.INVALID_REQUEST, Errors.INVALID_REQUEST),
                describe(KafkaApisTestNode.ADMIN, ConfigResource.Type.TOPIC.id(), (byte) 99));
    }

    /** Gives mallory DESCRIBE_CONFIGS on the resource, as the super user, and waits until it applies. */
    private void grant(ResourceType type, String name) {
        AclCreation acl = AclCreation.newBuilder().setResourceType(type.code()).setResourceName(name)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal(KafkaApisTestNode.MALLORY.principal()
                        .toString()).setHost("*").setOperation(AclOperation.DESCRIBE_CONFIGS.code())
                .setPermissionType(PermissionType.ALLOW.code()).build();
        CreateAclsResponse created = AdminRequestsNode.await(reply -> node.requests.admin().createAcls(
                CreateAclsRequest.newBuilder().addCreations(acl).build(), CallOrigin.CLIENT.by(KafkaApisTestNode.ADMIN),
                reply));
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.toString());
        node.awaitImage(() -> node.gateway.committedImage().lastCommittedOffset() >= created.getCommitOffset());
    }
}
