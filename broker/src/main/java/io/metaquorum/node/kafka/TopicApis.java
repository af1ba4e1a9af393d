package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import java.util.Map;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The topic and cluster APIs of the Kafka-protocol listener: what Kafka's AdminClient and
 * kafka-topics.sh need to find the brokers and the controller, and to list, describe, create,
 * grow and delete topics. Each is a thin adapter over the same {@link AdminRequests} call the
 * gRPC API makes, with the caller's origin, so authorization, forwarding to the active
 * controller and every decision are the same on both listeners.
 */
public final class TopicApis {
    private TopicApis() {
    }

    /**
     * Adds a handler for Metadata, DescribeCluster, CreateTopics, DeleteTopics,
     * CreatePartitions, DescribeTopicPartitions and ListPartitionReassignments to {@code into}.
     *
     * @param nodeId this node's id: the controller Metadata and DescribeCluster report when it is a
     *               broker listed on the caller's listener
     */
    public static void register(Map<ApiKeys, KafkaApiHandler> into, AdminRequests admin, int nodeId) {
        into.put(ApiKeys.METADATA, new MetadataHandler(admin, nodeId));
        into.put(ApiKeys.DESCRIBE_CLUSTER, new DescribeClusterHandler(admin, nodeId));
        into.put(ApiKeys.CREATE_TOPICS, new CreateTopicsHandler(admin));
        into.put(ApiKeys.DELETE_TOPICS, new DeleteTopicsHandler(admin));
        into.put(ApiKeys.CREATE_PARTITIONS, new CreatePartitionsHandler(admin));
        into.put(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, new DescribeTopicPartitionsHandler(admin));
        into.put(ApiKeys.LIST_PARTITION_REASSIGNMENTS, new ListPartitionReassignmentsHandler(admin));
    }
}
