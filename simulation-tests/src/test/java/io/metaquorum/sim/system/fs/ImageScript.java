package io.metaquorum.sim.system.fs;

import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Images made as a broker makes them: records replayed through {@link MetadataDelta}, one offset
 * each; each change returns the new image with what changed since the image before it.
 */
final class ImageScript {
    private MetadataImage image = MetadataImage.EMPTY;
    private long nextOffset;

    static UuidKey id(long n) {
        return new UuidKey(0x5EED_0000_0000_0000L | n, 0x0FED_CBA9_8765_4321L ^ n);
    }

    /** Creates {@code name}; {@code replicas[p]} are partition p's replicas. */
    ImageUpdate create(String name, UuidKey id, int[]... replicas) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name)
                .setTopicId(id.toUuid())).build());
        for (int p = 0; p < replicas.length; p++) {
            records.add(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id.toUuid())
                    .setPartition(p).addAllReplicas(list(replicas[p])).addAllIsr(list(replicas[p]))
                    .setLeader(replicas[p][0])).build());
        }
        return replay(records);
    }

    ImageUpdate delete(String name) {
        TopicImage topic = image.topics().topic(name);
        return replay(List.of(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(topic.id().toUuid())).build()));
    }

    private ImageUpdate replay(List<MetadataRecord> records) {
        MetadataDelta delta = MetadataDelta.recordingChanges(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset++, 1);
        }
        long baseOffset = image.lastCommittedOffset();
        image = delta.apply();
        return new ImageUpdate(image, baseOffset, delta.topicChanges());
    }

    private static List<Integer> list(int[] values) {
        return Arrays.stream(values).boxed().toList();
    }
}
