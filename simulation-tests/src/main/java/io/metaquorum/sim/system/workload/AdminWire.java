package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigOp;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.ConfigurationControlManager.OpType;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigOperation;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.TopicRef;

/**
 * The workload's calls as the admin API's requests ({@code admin.proto}), so that a simulated
 * client sends what a real one sends and the node's production handlers decode it. The
 * counterpart, from the API's responses to per-item results, is {@link AdminReplies}.
 */
public final class AdminWire {
    private AdminWire() {
    }

    /** What a write call asks its commit to wait for: 0 answers once raft accepted the records. */
    public static CreateTopicsRequest createTopics(AdminCall.CreateTopics call, int timeoutMs) {
        CreateTopicsRequest.Builder out = CreateTopicsRequest.newBuilder().setTimeoutMs(timeoutMs)
                .setValidateOnly(call.request().validateOnly());
        for (Topic topic : call.request().topics()) {
            CreatableTopic.Builder t = CreatableTopic.newBuilder().setName(topic.name());
            if (topic.numPartitions() != io.metaquorum.metadata.controller.CreateTopicsRequest.DEFAULT) {
                t.setNumPartitions(topic.numPartitions());
            }
            if (topic.replicationFactor() != io.metaquorum.metadata.controller.CreateTopicsRequest.DEFAULT) {
                t.setReplicationFactor(topic.replicationFactor());
            }
            for (PartitionAssignment a : topic.assignments()) {
                t.addAssignments(CreatableReplicaAssignment.newBuilder().setPartitionIndex(a.partition())
                        .addAllBrokerIds(a.brokers()));
            }
            for (Config c : topic.configs()) {
                CreatableTopicConfig.Builder config = CreatableTopicConfig.newBuilder().setName(c.name());
                if (c.value() != null) {
                    config.setValue(c.value());
                }
                t.addConfigs(config);
            }
            out.addTopics(t);
        }
        return out.build();
    }

    public static DeleteTopicsRequest deleteTopics(AdminCall.DeleteTopics call, int timeoutMs) {
        DeleteTopicsRequest.Builder out = DeleteTopicsRequest.newBuilder().setTimeoutMs(timeoutMs);
        call.names().forEach(name -> out.addTopics(TopicRef.newBuilder().setName(name)));
        return out.build();
    }

    public static CreatePartitionsRequest createPartitions(AdminCall.CreatePartitions call, int timeoutMs) {
        CreatePartitionsRequest.Builder out = CreatePartitionsRequest.newBuilder().setTimeoutMs(timeoutMs);
        for (CreatePartitionsTopic topic : call.topics()) {
            io.metaquorum.protocol.CreatePartitionsTopic.Builder t = io.metaquorum.protocol.CreatePartitionsTopic
                    .newBuilder().setName(topic.name()).setCount(topic.count());
            for (PartitionAssignment a : topic.assignments()) {
                t.addAssignments(CreatePartitionsAssignment.newBuilder().addAllBrokerIds(a.brokers()));
            }
            out.addTopics(t);
        }
        return out.build();
    }

    public static IncrementalAlterConfigsRequest alterConfigs(AdminCall.AlterConfigs call) {
        IncrementalAlterConfigsRequest.Builder out = IncrementalAlterConfigsRequest.newBuilder();
        for (AlterConfigsResource resource : call.resources()) {
            io.metaquorum.protocol.AlterConfigsResource.Builder r = io.metaquorum.protocol.AlterConfigsResource
                    .newBuilder().setResourceType(resource.resource().type())
                    .setResourceName(resource.resource().name());
            for (AlterConfigOp op : resource.ops()) {
                AlterableConfig.Builder config = AlterableConfig.newBuilder().setName(op.name())
                        .setConfigOperation(op.op() == OpType.DELETE ? ConfigOperation.DELETE : ConfigOperation.SET);
                if (op.value() != null) {
                    config.setValue(op.value());
                }
                r.addConfigs(config);
            }
            out.addResources(r);
        }
        return out.build();
    }

    public static DescribeTopicsRequest describeTopic(AdminCall.DescribeTopic call) {
        return DescribeTopicsRequest.newBuilder().addTopics(TopicRef.newBuilder().setName(call.name())).build();
    }

    public static ListTopicsRequest listTopics() {
        return ListTopicsRequest.getDefaultInstance();
    }
}
