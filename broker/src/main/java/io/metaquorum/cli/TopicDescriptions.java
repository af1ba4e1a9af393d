package io.metaquorum.cli;

import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.raft.TopicIds;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;

/**
 * The printed forms of {@code mq-topics --describe} (docs/commands.md): kafka-topics.sh's text, a
 * line per topic and a tab-led line per partition, and the one JSON object. Both show the
 * topic's own configs only (source DYNAMIC_TOPIC_CONFIG, or unknown), sorted by name;
 * partitions are sorted by index. Pure functions of the described topics.
 */
final class TopicDescriptions {
    private TopicDescriptions() {
    }

    static List<DescribedPartition> partitions(DescribedTopic topic) {
        return topic.getPartitionsList().stream()
                .sorted(Comparator.comparingInt(DescribedPartition::getPartitionIndex)).toList();
    }

    static List<DescribedConfig> ownConfigs(DescribedTopic topic) {
        return topic.getConfigsList().stream()
                .filter(config -> config.getConfigSource() == ConfigSource.DYNAMIC_TOPIC_CONFIG
                        || config.getConfigSource() == ConfigSource.CONFIG_SOURCE_UNKNOWN)
                .sorted(Comparator.comparing(DescribedConfig::getName)).toList();
    }

    /** The replica count of the lowest partition, as kafka-topics.sh reports it; 0 without partitions. */
    static int replicationFactor(DescribedTopic topic) {
        List<DescribedPartition> partitions = partitions(topic);
        return partitions.isEmpty() ? 0 : partitions.get(0).getReplicasCount();
    }

    static String text(DescribedTopic topic) {
        StringJoiner configs = new StringJoiner(",");
        for (DescribedConfig config : ownConfigs(topic)) {
            configs.add(config.getName() + "=" + (config.hasValue() ? config.getValue() : ""));
        }
        StringBuilder text = new StringBuilder();
        text.append("Topic: ").append(topic.getName())
                .append("\tTopicId: ").append(TopicIds.toBase64(topic.getTopicId()))
                .append("\tPartitionCount: ").append(topic.getPartitionsCount())
                .append("\tReplicationFactor: ").append(replicationFactor(topic))
                .append("\tConfigs: ").append(configs).append('\n');
        for (DescribedPartition partition : partitions(topic)) {
            text.append("\tTopic: ").append(topic.getName())
                    .append("\tPartition: ").append(partition.getPartitionIndex())
                    .append("\tLeader: ").append(partition.getLeaderId() < 0 ? "none" : partition.getLeaderId())
                    .append("\tReplicas: ").append(ids(partition.getReplicasList()))
                    .append("\tIsr: ").append(ids(partition.getIsrList())).append('\n');
        }
        return text.toString();
    }

    private static String ids(List<Integer> ids) {
        StringJoiner text = new StringJoiner(",");
        ids.forEach(id -> text.add(Integer.toString(id)));
        return text.toString();
    }

    /** The JSON object's parts, for printing it a topic at a time: start, topics joined by separator, end. */
    static final String JSON_START = "{\"topics\": [";
    static final String JSON_SEPARATOR = ", ";
    static final String JSON_END = "]}";

    static String json(List<DescribedTopic> topics) {
        StringJoiner all = new StringJoiner(JSON_SEPARATOR, JSON_START, JSON_END);
        for (DescribedTopic topic : topics) {
            all.add(json(topic));
        }
        return all.toString();
    }

    static String json(DescribedTopic topic) {
        StringJoiner configs = new StringJoiner(", ", "{", "}");
        for (DescribedConfig config : ownConfigs(topic)) {
            configs.add(JsonText.string(config.getName()) + ": "
                    + JsonText.string(config.hasValue() ? config.getValue() : null));
        }
        StringJoiner partitions = new StringJoiner(", ", "[", "]");
        for (DescribedPartition partition : partitions(topic)) {
            partitions.add("{\"partition\": " + partition.getPartitionIndex()
                    + ", \"leader\": " + partition.getLeaderId()
                    + ", \"leaderEpoch\": " + partition.getLeaderEpoch()
                    + ", \"replicas\": " + JsonText.ints(partition.getReplicasList())
                    + ", \"isr\": " + JsonText.ints(partition.getIsrList()) + "}");
        }
        return "{\"name\": " + JsonText.string(topic.getName())
                + ", \"topicId\": " + JsonText.string(TopicIds.toBase64(topic.getTopicId()))
                + ", \"configs\": " + configs
                + ", \"partitions\": " + partitions + "}";
    }
}
