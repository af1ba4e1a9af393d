package io.metaquorum.node.admin;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ConfigSource;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Images of topics for the describe tests, replayed through {@link MetadataDelta} as a node makes them. */
final class DescribeImages {
    private DescribeImages() {
    }

    /**
     * An image holding {@code partitionsByName}'s topics, RF 3 on brokers 1-3 (none
     * registered); a topic with an odd partition count has {@code retention.ms} set to it.
     */
    static MetadataImage of(Map<String, Integer> partitionsByName) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (Map.Entry<String, Integer> topic : partitionsByName.entrySet()) {
            UuidKey id = id(topic.getKey());
            delta.replay(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(topic.getKey())
                    .setTopicId(id.toUuid())).build(), offset++, 1);
            for (int p = 0; p < topic.getValue(); p++) {
                int leader = 1 + p % 3;
                delta.replay(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder()
                        .setTopicId(id.toUuid()).setPartition(p).addReplicas(leader).addReplicas(1 + (p + 1) % 3)
                        .addReplicas(1 + (p + 2) % 3).addIsr(leader).setLeader(leader)).build(), offset++, 1);
            }
            if (topic.getValue() % 2 == 1) {
                delta.replay(MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                        .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName(topic.getKey())
                        .setName("retention.ms").setValue(Integer.toString(topic.getValue()))).build(), offset++, 1);
            }
        }
        return delta.apply();
    }

    /** {@code image} without the topic {@code name}. */
    static MetadataImage without(MetadataImage image, String name) {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(image.topics().topic(name).id().toUuid())).build(), image.lastCommittedOffset() + 1, 1);
        return delta.apply();
    }

    /** {@code topics} with only the configs set on them, as a paged describe carries them. */
    static List<DescribedTopic> ownConfigsOnly(List<DescribedTopic> topics) {
        return topics.stream().map(t -> t.toBuilder().clearConfigs().addAllConfigs(t.getConfigsList().stream()
                .filter(c -> c.getConfigSource() == ConfigSource.DYNAMIC_TOPIC_CONFIG).toList()).build()).toList();
    }

    /**
     * A topic id made from its name, so that the same name always has the same id. A name
     * hash is not enough: two names of one length share a {@code hashCode} ("Ka", "LB"),
     * and the image rightly refuses a second topic under an id already taken.
     */
    static UuidKey id(String name) {
        UUID id = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
        return new UuidKey(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }
}
