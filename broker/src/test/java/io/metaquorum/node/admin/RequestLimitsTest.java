package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeTopicsCursor;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The edge checks without a server: each names the field it refuses. */
class RequestLimitsTest {
    @Test
    void aclRequestsAreBoundedInCountAndStringSize() {
        CreateAclsRequest.Builder many = CreateAclsRequest.newBuilder();
        for (int i = 0; i <= RequestLimits.ENTRIES_PER_REQUEST_MAX; i++) {
            many.addCreations(AclCreation.getDefaultInstance());
        }
        assertEquals(Optional.of("creations has 10001 entries; at most 10000 are allowed."),
                RequestLimits.check(many.build()));
        assertEquals(Optional.of("creations[0].host has 40000 characters; at most 32768 are allowed."),
                RequestLimits.check(CreateAclsRequest.newBuilder().addCreations(AclCreation.newBuilder()
                        .setHost("h".repeat(40_000))).build()));
        assertEquals(Optional.of("filters[1].resource_name has 40000 characters; at most 32768 are allowed."),
                RequestLimits.check(DeleteAclsRequest.newBuilder().addFilters(AclFilter.getDefaultInstance())
                        .addFilters(AclFilter.newBuilder().setResourceName("n".repeat(40_000))).build()));
        assertEquals(Optional.empty(), RequestLimits.check(DeleteAclsRequest.newBuilder()
                .addFilters(AclFilter.getDefaultInstance()).build()), "what a filter means is the controller's to say");
    }

    @Test
    void createPartitionsAssignmentsAreBounded() {
        assertEquals(Optional.of("topics[0].assignments[0].broker_ids[1] is -1; a broker id is not negative."),
                RequestLimits.check(CreatePartitionsRequest.newBuilder().addTopics(CreatePartitionsTopic.newBuilder()
                        .setName("t").setCount(2).addAssignments(CreatePartitionsAssignment.newBuilder()
                                .addBrokerIds(1).addBrokerIds(-1))).build()));
    }

    @Test
    void configCountsAndValuesAreBounded() {
        AlterConfigsResource.Builder resource = AlterConfigsResource.newBuilder().setResourceName("t");
        for (int i = 0; i <= RequestLimits.CONFIGS_PER_RESOURCE_MAX; i++) {
            resource.addConfigs(AlterableConfig.newBuilder().setName("k" + i).setValue("v"));
        }
        assertEquals(Optional.of("resources[0].configs has 1001 entries; at most 1000 are allowed."),
                RequestLimits.check(IncrementalAlterConfigsRequest.newBuilder().addResources(resource).build()));
        AlterConfigsResource longValue = AlterConfigsResource.newBuilder().setResourceName("t").addConfigs(
                AlterableConfig.newBuilder().setName("k").setValue("v".repeat(40_000))).build();
        assertEquals(Optional.of("resources[0].configs[0].value has 40000 characters; at most 32768 are allowed."),
                RequestLimits.check(IncrementalAlterConfigsRequest.newBuilder().addResources(longValue).build()));
        assertEquals(Optional.of("resources[0].configuration_keys[0] has 40000 characters; at most 32768 are "
                + "allowed."), RequestLimits.check(DescribeConfigsRequest.newBuilder().addResources(
                        DescribeConfigsResource.newBuilder().setResourceName("t")
                                .addConfigurationKeys("k".repeat(40_000))).build()));
    }

    @Test
    void describePagesAreBoundedAndOnlyForEveryTopic() {
        assertEquals(Optional.of("response_partition_limit is -1; it must be between 1 and 10000."),
                RequestLimits.check(DescribeTopicsRequest.newBuilder().setResponsePartitionLimit(-1).build()));
        assertEquals(Optional.of("response_partition_limit is 0; it must be between 1 and 10000."),
                RequestLimits.check(DescribeTopicsRequest.newBuilder().setResponsePartitionLimit(0).build()));
        assertEquals(Optional.of("response_partition_limit is 10001; it must be between 1 and 10000."),
                RequestLimits.check(DescribeTopicsRequest.newBuilder()
                        .setResponsePartitionLimit(RequestLimits.DESCRIBE_PAGE_PARTITIONS_MAX + 1).build()));
        assertEquals(Optional.empty(), RequestLimits.check(DescribeTopicsRequest.newBuilder()
                .setResponsePartitionLimit(RequestLimits.DESCRIBE_PAGE_PARTITIONS_MAX).build()));
        assertEquals(Optional.of("cursor.partition_index is -2; a partition index is not negative."),
                RequestLimits.check(DescribeTopicsRequest.newBuilder().setCursor(DescribeTopicsCursor.newBuilder()
                        .setTopicName("t").setPartitionIndex(-2)).build()));
        assertEquals(Optional.of("cursor.topic_name has 40000 characters; at most 32768 are allowed."),
                RequestLimits.check(DescribeTopicsRequest.newBuilder().setCursor(DescribeTopicsCursor.newBuilder()
                        .setTopicName("t".repeat(40_000))).build()));
        assertEquals(Optional.of("response_partition_limit and cursor page a describe of every topic; topics has 1 "
                + "entries, it must be empty."), RequestLimits.check(DescribeTopicsRequest.newBuilder()
                        .addTopics(TopicRef.newBuilder().setName("t")).setResponsePartitionLimit(10).build()));
        assertEquals(Optional.empty(), RequestLimits.check(DescribeTopicsRequest.getDefaultInstance()));
    }

    @Test
    void listenerPortsAreTcpPorts() {
        assertEquals(Optional.of("listeners[0].port 70000 is not a TCP port."), RequestLimits.check(
                registration().toBuilder().setListeners(0, BrokerEndpoint.newBuilder()
                        .setName("PLAINTEXT").setHost("h").setPort(70_000)).build()));
        assertEquals(Optional.empty(), RequestLimits.check(registration()));
    }

    @Test
    void writeHeaderSaysNotControllerOnlyWhenEveryEntryLostTheLeadership() {
        ApiError lost = ApiError.of(ErrorCode.NOT_CONTROLLER, "gone");
        assertEquals(ErrorCode.NOT_CONTROLLER, ResponseHeaders.ofWrite(List.of(lost, lost), 2).getErrorCode());
        assertEquals(ErrorCode.NONE, ResponseHeaders.ofWrite(List.of(lost, ApiError.NONE), 2).getErrorCode());
        assertEquals(ErrorCode.NONE, ResponseHeaders.ofWrite(List.of(), 2).getErrorCode());
    }

    private static BrokerRegistrationRequest registration() {
        return BrokerRegistrationRequest.newBuilder().setClusterId("test-cluster").setBrokerId(1)
                .setIncarnationId(TopicIds.uuid(1, 42)).setRack("")
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost").setPort(9093))
                .build();
    }
}
