package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeQuorumRequestData;
import org.apache.kafka.common.message.DescribeQuorumResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DescribeQuorumRequest;
import org.apache.kafka.common.requests.DescribeQuorumResponse;

/**
 * Kafka's DescribeQuorum (api key 55; {@code Admin.describeMetadataQuorum},
 * kafka-metadata-quorum.sh) on any node: DESCRIBE on the cluster (the row of raft's
 * DescribeQuorum in {@link io.metaquorum.node.access.RpcAccessTable}), checked on this node's
 * image, then the raft leader's answer through {@link QuorumDescriptions}, so that a client
 * bootstrapped to any node gets the leader's view, as one bootstrapped to a Kafka broker does.
 * When no leader answers, the partition says NOT_LEADER_OR_FOLLOWER, which Kafka's client retries.
 *
 * <p>Only the metadata partition ({@code __cluster_metadata}-0) is described; a request for
 * anything else answers UNKNOWN_TOPIC_OR_PARTITION for each partition it names, as Kafka's
 * raft client does.
 */
final class DescribeQuorumApi implements KafkaApiHandler {
    private final AdminRequests admin;
    private final QuorumDescriptions quorum;
    private final String listenerName;

    /** @param listenerName the name v2's node listeners carry: the listener raft runs on */
    DescribeQuorumApi(AdminRequests admin, QuorumDescriptions quorum, String listenerName) {
        this.admin = admin;
        this.quorum = quorum;
        this.listenerName = listenerName;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DescribeQuorumRequestData data = ((DescribeQuorumRequest) request).data();
        short version = request.version();
        Optional<ApiError> refused = admin.refusedOnCluster(call.origin(), AclOperation.DESCRIBE);
        if (refused.isPresent()) {
            reply.accept(new DescribeQuorumResponse(QuorumAnswers.failed(refused.get().code(),
                    refused.get().message(), version)));
            return;
        }
        if (!asksForTheMetadataPartition(data)) {
            reply.accept(new DescribeQuorumResponse(unknownPartitions(data, version)));
            return;
        }
        quorum.describeLeader(answer -> reply.accept(new DescribeQuorumResponse(
                QuorumAnswers.toKafka(answer, listenerName, version))));
    }

    private static boolean asksForTheMetadataPartition(DescribeQuorumRequestData data) {
        return data.topics().size() == 1 && Topic.CLUSTER_METADATA_TOPIC_NAME.equals(data.topics().get(0).topicName())
                && data.topics().get(0).partitions().size() == 1
                && data.topics().get(0).partitions().get(0).partitionIndex() == 0;
    }

    private static DescribeQuorumResponseData unknownPartitions(DescribeQuorumRequestData data, short version) {
        List<DescribeQuorumResponseData.TopicData> topics = new ArrayList<>(data.topics().size());
        for (DescribeQuorumRequestData.TopicData topic : data.topics()) {
            List<DescribeQuorumResponseData.PartitionData> partitions = new ArrayList<>(topic.partitions().size());
            for (DescribeQuorumRequestData.PartitionData p : topic.partitions()) {
                DescribeQuorumResponseData.PartitionData partition = new DescribeQuorumResponseData.PartitionData()
                        .setPartitionIndex(p.partitionIndex()).setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                        .setLeaderId(-1).setLeaderEpoch(-1).setHighWatermark(-1);
                if (version >= QuorumAnswers.NODES_VERSION_MIN) {
                    partition.setErrorMessage("Only " + Topic.CLUSTER_METADATA_TOPIC_NAME + "-0 is described.");
                }
                partitions.add(partition);
            }
            topics.add(new DescribeQuorumResponseData.TopicData().setTopicName(topic.topicName())
                    .setPartitions(partitions));
        }
        return QuorumAnswers.failed(ErrorCode.NONE, "", version).setTopics(topics);
    }
}
