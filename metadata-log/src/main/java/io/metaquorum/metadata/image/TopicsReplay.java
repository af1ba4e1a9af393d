package io.metaquorum.metadata.image;

import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.raft.TopicIds;
import io.vavr.collection.HashMap;
import java.util.List;
import java.util.function.Supplier;

/**
 * Replays the topic records onto a {@link TopicsImage}, refusing the impossible ones with
 * an {@link InvalidRecordException} that names the offset. Each method returns the next
 * image and leaves the one it was given untouched.
 */
final class TopicsReplay {
    private TopicsReplay() {
    }

    static TopicsImage topic(TopicsImage topics, TopicRecord record, long offset) {
        String type = "TopicRecord";
        UuidKey id = UuidKey.of(record.getTopicId());
        check(!record.getName().isEmpty(), offset, type, "empty topic name");
        check(!record.getTopicId().equals(TopicIds.ZERO) && !record.getTopicId().equals(TopicIds.METADATA_TOPIC_ID),
                offset, type, () -> "reserved topic id " + TopicIds.toBase64(record.getTopicId()));
        check(topics.topic(id) == null, offset, type, () -> "topic id " + TopicIds.toBase64(record.getTopicId())
                + " already belongs to topic '" + nameOf(topics.topic(id)) + "'");
        check(topics.topic(record.getName()) == null, offset, type, () -> "topic '" + record.getName() + "' already exists");
        return topics.withNewTopic(new TopicImage(record.getName(), id, HashMap.empty()));
    }

    static TopicsImage partition(TopicsImage topics, PartitionRecord record, long offset) {
        String type = "PartitionRecord";
        TopicImage topic = existingTopic(topics, record.getTopicId(), offset, type);
        check(record.getPartition() == topic.partitionCount(), offset, type, () -> "partition " + record.getPartition()
                + " of topic '" + topic.name() + "', which has " + topic.partitionCount() + " partition(s): "
                + "partitions are added in order from 0");
        int[] replicas = ints(record.getReplicasList());
        int[] isr = ints(record.getIsrList());
        String violation = PartitionRegistration.violation(replicas, isr, record.getLeader(), record.getLeaderEpoch(),
                record.getPartitionEpoch());
        check(violation == null, offset, type, violation);
        PartitionRegistration partition = PartitionRegistration.owning(replicas, isr, record.getLeader(),
                record.getLeaderEpoch(), record.getPartitionEpoch());
        return topics.withChangedTopic(topic.withPartition(record.getPartition(), partition));
    }

    static TopicsImage partitionChange(TopicsImage topics, PartitionChangeRecord record, long offset) {
        String type = "PartitionChangeRecord";
        TopicImage topic = existingTopic(topics, record.getTopicId(), offset, type);
        PartitionRegistration old = topic.partition(record.getPartition());
        check(old != null, offset, type, () -> "topic '" + topic.name() + "' has no partition " + record.getPartition());
        int[] replicas = record.getHasReplicas() ? ints(record.getReplicasList()) : old.replicas();
        int[] isr = record.getHasIsr() ? ints(record.getIsrList()) : old.isr();
        int leader = record.hasLeader() ? record.getLeader() : old.leader();
        check(record.getPartitionEpoch() == old.partitionEpoch() + 1, offset, type, () -> "partition epoch "
                + record.getPartitionEpoch() + " does not follow " + old.partitionEpoch());
        boolean leaderMoved = leader != old.leader();
        boolean epochStep = record.getLeaderEpoch() == old.leaderEpoch() + 1;
        check(epochStep || (!leaderMoved && record.getLeaderEpoch() == old.leaderEpoch()), offset, type,
                () -> "leader epoch " + record.getLeaderEpoch() + " after " + old.leaderEpoch() + " with the leader "
                        + (leaderMoved ? "moving from " + old.leader() + " to " + leader : "unchanged"));
        String violation = PartitionRegistration.violation(replicas, isr, leader, record.getLeaderEpoch(),
                record.getPartitionEpoch());
        check(violation == null, offset, type, violation);
        PartitionRegistration next = PartitionRegistration.owning(replicas, isr, leader, record.getLeaderEpoch(),
                record.getPartitionEpoch());
        return topics.withChangedTopic(topic.withPartition(record.getPartition(), next));
    }

    static TopicImage removeTopic(TopicsImage topics, RemoveTopicRecord record, long offset) {
        return existingTopic(topics, record.getTopicId(), offset, "RemoveTopicRecord");
    }

    private static TopicImage existingTopic(TopicsImage topics, io.metaquorum.protocol.Uuid id, long offset,
                                            String type) {
        TopicImage topic = topics.topic(UuidKey.of(id));
        check(topic != null, offset, type, () -> "unknown topic id " + TopicIds.toBase64(id));
        return topic;
    }

    private static String nameOf(TopicImage topic) {
        return topic == null ? "" : topic.name();
    }

    static int[] ints(List<Integer> values) {
        int[] ints = new int[values.size()];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = values.get(i);
        }
        return ints;
    }

    static void check(boolean condition, long offset, String type, String detail) {
        if (!condition) {
            throw new InvalidRecordException(offset, type, detail);
        }
    }

    /** The same, with the detail built only on failure: replay runs this for every record of a catch-up. */
    static void check(boolean condition, long offset, String type, Supplier<String> detail) {
        if (!condition) {
            throw new InvalidRecordException(offset, type, detail.get());
        }
    }
}
