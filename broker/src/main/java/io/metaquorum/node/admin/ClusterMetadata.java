package io.metaquorum.node.admin;

import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeTopicsResponse;

/**
 * What a Kafka Metadata request reads, from one committed image, so that every leader it names
 * is judged against the same broker list: the cluster id and every registered broker (each
 * with all its listeners), and the topics asked for.
 *
 * @param cluster the cluster id and the brokers; its header is always NONE (no right is needed)
 * @param topics  the topics, authorized as {@link AdminRequests#describeTopics} does; its header
 *                carries a request-level refusal (an edge check, or a caller the node may not
 *                admit yet), and it has no topics when none were asked for
 */
public record ClusterMetadata(DescribeClusterResponse cluster, DescribeTopicsResponse topics) {
}
