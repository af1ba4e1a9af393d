package io.metaquorum.node.kafka;

import io.metaquorum.protocol.DescribeTopicsResponse;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponsePartition;
import org.apache.kafka.common.message.DescribeTopicPartitionsResponseData.DescribeTopicPartitionsResponseTopic;
import org.apache.kafka.common.protocol.Errors;

/**
 * One page of a DescribeTopicPartitions that names its topics, cut from our describe of those
 * names (asked in name order, from the cursor's topic on) as Kafka cuts it: the cursor's topic
 * starts at the cursor's partition, the others at 0; a topic the caller may not DESCRIBE
 * (TOPIC_AUTHORIZATION_FAILED, with the id zeroed) or that does not exist
 * (UNKNOWN_TOPIC_OR_PARTITION, or INVALID_TOPIC_EXCEPTION for a name no topic could have) takes
 * no room; the page stops when it is full, inside a topic (the next cursor names its next
 * partition) or before the next topic that could take room (the cursor names its partition 0).
 * No partition has eligible leader replicas (KIP-966's ELR is not kept here): both lists are
 * empty, as Kafka sends them with ELR off.
 */
final class NamedTopicPages {
    private NamedTopicPages() {
    }

    static DescribeTopicPartitionsResponseData page(DescribeTopicsResponse described, ListenerPartitions partitions,
                                                    String fromName, int fromIndex, int limit) {
        DescribeTopicPartitionsResponseData out = new DescribeTopicPartitionsResponseData();
        int room = limit;
        for (DescribedTopic topic : described.getTopicsList()) {
            if (topic.getErrorCode() == ErrorCode.TOPIC_AUTHORIZATION_FAILED) {
                out.topics().add(failed(topic.getName(), Errors.TOPIC_AUTHORIZATION_FAILED));
                continue;
            }
            if (room == 0) {
                out.setNextCursor(cursor(topic.getName(), 0));
                break;
            }
            if (topic.getErrorCode() != ErrorCode.NONE) {
                boolean unknown = topic.getErrorCode() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
                Errors error = unknown && !Topic.isValid(topic.getName()) ? Errors.INVALID_TOPIC_EXCEPTION
                        : Errors.forCode(WireErrors.code(topic.getErrorCode()));
                out.topics().add(failed(topic.getName(), error));
                continue;
            }
            int count = topic.getPartitionsCount();
            int first = Math.min(count, topic.getName().equals(fromName) ? fromIndex : 0);
            int end = (int) Math.min(count, (long) first + room);
            out.topics().add(topic(topic, partitions, first, end));
            if (end < count) {
                out.setNextCursor(cursor(topic.getName(), end));
                break;
            }
            room -= end - first;
        }
        return out;
    }

    /** The topic with its described partitions at positions {@code from} (inclusive) to {@code to} (exclusive). */
    static DescribeTopicPartitionsResponseTopic topic(DescribedTopic topic, ListenerPartitions partitions, int from,
                                                      int to) {
        DescribeTopicPartitionsResponseTopic out = new DescribeTopicPartitionsResponseTopic()
                .setErrorCode(Errors.NONE.code()).setName(topic.getName())
                .setTopicId(WireValues.uuid(topic.getTopicId())).setIsInternal(false);
        for (int i = from; i < to; i++) {
            DescribedPartition p = topic.getPartitions(i);
            PartitionState state = partitions.state(p, false, true);
            out.partitions().add(new DescribeTopicPartitionsResponsePartition().setErrorCode(state.errorCode())
                    .setPartitionIndex(state.partitionIndex()).setLeaderId(state.leaderId())
                    .setLeaderEpoch(state.leaderEpoch()).setReplicaNodes(state.replicas()).setIsrNodes(state.isr())
                    .setEligibleLeaderReplicas(List.of()).setLastKnownElr(List.of())
                    .setOfflineReplicas(state.offline()));
        }
        return out;
    }

    private static DescribeTopicPartitionsResponseTopic failed(String name, Errors error) {
        return new DescribeTopicPartitionsResponseTopic().setErrorCode(error.code()).setName(name)
                .setTopicId(Uuid.ZERO_UUID).setIsInternal(false);
    }

    private static DescribeTopicPartitionsResponseData.Cursor cursor(String topicName, int partitionIndex) {
        return new DescribeTopicPartitionsResponseData.Cursor().setTopicName(topicName)
                .setPartitionIndex(partitionIndex);
    }
}
