package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.security.Caller;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeQuorumRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every response these handlers build, at every version Kafka's client library knows, is
 * written and read back with Kafka's own serializer and parser and compares equal to what was
 * built: a field set where the version cannot carry it would fail the write, or (an ignorable
 * one) be lost on the way and fail the comparison. Each API is called as a caller with its
 * rights and as one without, so both the answer and the refusal are covered.
 */
class KafkaConfigAclWireTest {
    private KafkaApisTestNode node;

    @BeforeEach
    void start() throws Exception {
        node = new KafkaApisTestNode();
        node.createTopic("orders");
        node.answerQuorumWith(KafkaDescribeQuorumApiTest.leaderAnswer());
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private void roundTripsAtEveryVersion(ApiKeys key, Function<Short, AbstractRequest> request) throws Exception {
        List<String> checked = new ArrayList<>();
        for (short version = key.oldestVersion(); version <= key.latestVersion(); version++) {
            for (Caller caller : List.of(ADMIN, MALLORY)) {
                AbstractRequest built = request.apply(version);
                assertEquals(version, built.version());
                AbstractResponse response = node.call(caller, built);
                short headerVersion = key.responseHeaderVersion(version);
                ByteBuffer bytes = RequestUtils.serialize(new ResponseHeaderData().setCorrelationId(7), headerVersion,
                        response.data(), version);
                AbstractResponse parsed = AbstractResponse.parseResponse(bytes,
                        new RequestHeader(key, version, "wire-test", 7));
                assertEquals(response.data(), parsed.data(), key + " v" + version + " as " + caller.principal());
                checked.add(key + " v" + version);
            }
        }
        assertTrue(checked.size() >= 2, checked.toString());
    }

    @Test
    void describeConfigs() throws Exception {
        roundTripsAtEveryVersion(ApiKeys.DESCRIBE_CONFIGS, version -> new DescribeConfigsRequest.Builder(
                new DescribeConfigsRequestData().setIncludeSynonyms(true).setIncludeDocumentation(version >= 3)
                        .setResources(List.of(
                                new DescribeConfigsRequestData.DescribeConfigsResource()
                                        .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName("orders")
                                        .setConfigurationKeys(null),
                                new DescribeConfigsRequestData.DescribeConfigsResource()
                                        .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName("missing"),
                                new DescribeConfigsRequestData.DescribeConfigsResource()
                                        .setResourceType(ConfigResource.Type.BROKER_LOGGER.id())
                                        .setResourceName("1")))).build(version));
    }

    @Test
    void incrementalAlterConfigs() throws Exception {
        roundTripsAtEveryVersion(ApiKeys.INCREMENTAL_ALTER_CONFIGS, version -> {
            IncrementalAlterConfigsRequestData.AlterableConfigCollection configs =
                    new IncrementalAlterConfigsRequestData.AlterableConfigCollection();
            configs.add(new IncrementalAlterConfigsRequestData.AlterableConfig().setName("retention.ms")
                    .setConfigOperation((byte) 0).setValue("60000"));
            IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection resources =
                    new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
            resources.add(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                    .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName("orders").setConfigs(configs));
            return new IncrementalAlterConfigsRequest.Builder(new IncrementalAlterConfigsRequestData()
                    .setResources(resources).setValidateOnly(true)).build(version);
        });
    }

    @Test
    void aclApis() throws Exception {
        AclBinding read = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
        roundTripsAtEveryVersion(ApiKeys.CREATE_ACLS, version -> new CreateAclsRequest.Builder(
                new CreateAclsRequestData().setCreations(List.of(CreateAclsRequest.aclCreation(read)))).build(version));
        node.awaitImage(() -> !node.gateway.committedImage().acls()
                .matching(io.metaquorum.metadata.acl.AclBindingFilter.ANY).isEmpty());
        roundTripsAtEveryVersion(ApiKeys.DESCRIBE_ACLS, version -> new DescribeAclsRequest.Builder(
                AclBindingFilter.ANY).build(version));
        roundTripsAtEveryVersion(ApiKeys.DELETE_ACLS, version -> new DeleteAclsRequest.Builder(
                new DeleteAclsRequestData().setFilters(List.of(DeleteAclsRequest.deleteAclsFilter(
                        AclBindingFilter.ANY)))).build(version));
    }

    @Test
    void describeQuorum() throws Exception {
        roundTripsAtEveryVersion(ApiKeys.DESCRIBE_QUORUM, version -> new DescribeQuorumRequest.Builder(
                DescribeQuorumRequest.singletonRequest(Topic.CLUSTER_METADATA_TOPIC_PARTITION)).build(version));
    }
}
