package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Metadata images for the LogManager tests, made the way a broker makes them: records replayed
 * through {@link MetadataDelta}, one offset per record, so unchanged topics are shared between
 * successive images exactly as in production.
 */
public final class TestImages {
    private MetadataImage image = MetadataImage.EMPTY;
    private long nextOffset;

    public MetadataImage image() {
        return image;
    }

    public static UuidKey id(long n) {
        return new UuidKey(0x5EED_0000_0000_0000L | n, 0x0123_4567_89AB_CDEFL ^ n);
    }

    public static String base64(UuidKey id) {
        return TopicIds.toBase64(id.toUuid());
    }

    /** Creates a topic; {@code replicas[p]} are the replicas of partition p. */
    public MetadataImage create(String name, UuidKey id, int[]... replicas) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name)
                .setTopicId(id.toUuid())).build());
        for (int p = 0; p < replicas.length; p++) {
            records.add(partition(id, p, replicas[p]));
        }
        return replay(records);
    }

    /** Adds partitions at the end of an existing topic. */
    public MetadataImage addPartitions(String name, int[]... replicas) {
        TopicImage topic = image.topics().topic(name);
        List<MetadataRecord> records = new ArrayList<>();
        for (int i = 0; i < replicas.length; i++) {
            records.add(partition(topic.id(), topic.partitionCount() + i, replicas[i]));
        }
        return replay(records);
    }

    public MetadataImage delete(String name) {
        TopicImage topic = image.topics().topic(name);
        return replay(List.of(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(topic.id().toUuid())).build()));
    }

    /** Moves partition {@code partition} of {@code name} to {@code replicas} (all in sync, the first leads). */
    public MetadataImage reassign(String name, int partition, int... replicas) {
        TopicImage topic = image.topics().topic(name);
        PartitionRegistration old = topic.partition(partition);
        boolean leaderMoves = old.leader() != replicas[0];
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder().setTopicId(topic.id().toUuid())
                .setPartition(partition).setHasReplicas(true).addAllReplicas(list(replicas)).setHasIsr(true)
                .addAllIsr(list(replicas)).setLeader(replicas[0])
                .setLeaderEpoch(old.leaderEpoch() + (leaderMoves ? 1 : 0)).setPartitionEpoch(old.partitionEpoch() + 1);
        return replay(List.of(MetadataRecord.newBuilder().setPartitionChange(change).build()));
    }

    /** The same image rebuilt from its records, as after a snapshot load: equal, but no topic object shared. */
    public MetadataImage reloaded() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        List<MetadataRecord> records = image.toRecords();
        long offset = 0;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, 1);
        }
        if (image.lastCommittedOffset() >= offset) {
            delta.advanceTo(image.lastCommittedOffset(), 1);
        }
        nextOffset = Math.max(nextOffset, offset);
        image = delta.apply();
        return image;
    }

    private static MetadataRecord partition(UuidKey id, int p, int[] replicas) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id.toUuid())
                .setPartition(p).addAllReplicas(list(replicas)).addAllIsr(list(replicas)).setLeader(replicas[0]))
                .build();
    }

    private MetadataImage replay(List<MetadataRecord> records) {
        MetadataDelta delta = new MetadataDelta(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset++, 1);
        }
        image = delta.apply();
        return image;
    }

    private static List<Integer> list(int[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    public static int[] replicas(int... ids) {
        return ids;
    }
}
