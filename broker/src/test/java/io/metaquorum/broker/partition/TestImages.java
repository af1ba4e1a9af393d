package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.ImageUpdate;
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
 * successive images exactly as in production. Each change returns the new image with what
 * changed since the image before it, as the loader publishes it.
 */
public final class TestImages {
    private MetadataImage image = MetadataImage.EMPTY;
    private long nextOffset;
    /** The last update made. */
    private ImageUpdate latest = ImageUpdate.unchanged(MetadataImage.EMPTY);
    /** The updates made since the last {@link #take()}, merged. */
    private ImageUpdate untaken = ImageUpdate.unchanged(MetadataImage.EMPTY);

    public MetadataImage image() {
        return image;
    }

    /** The last update made: the current image, with the changes since the image before it. */
    public ImageUpdate latest() {
        return latest;
    }

    /** The current image with every change since the last call (since the empty image, the first time). */
    public ImageUpdate take() {
        ImageUpdate taken = untaken;
        untaken = ImageUpdate.unchanged(image);
        return taken;
    }

    public static UuidKey id(long n) {
        return new UuidKey(0x5EED_0000_0000_0000L | n, 0x0123_4567_89AB_CDEFL ^ n);
    }

    public static String base64(UuidKey id) {
        return TopicIds.toBase64(id.toUuid());
    }

    /** Creates a topic; {@code replicas[p]} are the replicas of partition p. */
    public ImageUpdate create(String name, UuidKey id, int[]... replicas) {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name)
                .setTopicId(id.toUuid())).build());
        for (int p = 0; p < replicas.length; p++) {
            records.add(partition(id, p, replicas[p]));
        }
        return replay(records);
    }

    /** Adds partitions at the end of an existing topic. */
    public ImageUpdate addPartitions(String name, int[]... replicas) {
        TopicImage topic = image.topics().topic(name);
        List<MetadataRecord> records = new ArrayList<>();
        for (int i = 0; i < replicas.length; i++) {
            records.add(partition(topic.id(), topic.partitionCount() + i, replicas[i]));
        }
        return replay(records);
    }

    public ImageUpdate delete(String name) {
        TopicImage topic = image.topics().topic(name);
        return replay(List.of(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(topic.id().toUuid())).build()));
    }

    /** Moves partition {@code partition} of {@code name} to {@code replicas} (all in sync, the first leads). */
    public ImageUpdate reassign(String name, int partition, int... replicas) {
        TopicImage topic = image.topics().topic(name);
        PartitionRegistration old = topic.partition(partition);
        boolean leaderMoves = old.leader() != replicas[0];
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder().setTopicId(topic.id().toUuid())
                .setPartition(partition).setHasReplicas(true).addAllReplicas(list(replicas)).setHasIsr(true)
                .addAllIsr(list(replicas)).setLeader(replicas[0])
                .setLeaderEpoch(old.leaderEpoch() + (leaderMoves ? 1 : 0)).setPartitionEpoch(old.partitionEpoch() + 1);
        return replay(List.of(MetadataRecord.newBuilder().setPartitionChange(change).build()));
    }

    /**
     * Moves the leadership of partition {@code partition} of {@code name} to the next replica in
     * its ISR and shrinks the ISR to the new leader alone: a change that moves no replica.
     */
    public ImageUpdate moveLeader(String name, int partition) {
        TopicImage topic = image.topics().topic(name);
        PartitionRegistration old = topic.partition(partition);
        int[] isr = old.isr();
        int leader = isr.length == 0 ? old.preferredLeader() : isr[(indexOf(isr, old.leader()) + 1) % isr.length];
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder().setTopicId(topic.id().toUuid())
                .setPartition(partition).setHasIsr(true).addIsr(leader).setLeader(leader)
                .setLeaderEpoch(old.leaderEpoch() + (leader != old.leader() ? 1 : 0))
                .setPartitionEpoch(old.partitionEpoch() + 1);
        return replay(List.of(MetadataRecord.newBuilder().setPartitionChange(change).build()));
    }

    private static int indexOf(int[] values, int value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The same image rebuilt from its records, as after a snapshot load: equal, but no topic
     * object shared, and its changes unknown. It stands in for the updates not taken yet (it
     * covers any change), as a loaded snapshot does for the records it skips.
     */
    public ImageUpdate reloaded() {
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
        latest = ImageUpdate.loaded(image);
        untaken = latest;
        return latest;
    }

    private static MetadataRecord partition(UuidKey id, int p, int[] replicas) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id.toUuid())
                .setPartition(p).addAllReplicas(list(replicas)).addAllIsr(list(replicas)).setLeader(replicas[0]))
                .build();
    }

    private ImageUpdate replay(List<MetadataRecord> records) {
        MetadataDelta delta = MetadataDelta.recordingChanges(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset++, 1);
        }
        long baseOffset = image.lastCommittedOffset();
        image = delta.apply();
        return published(new ImageUpdate(image, baseOffset, delta.topicChanges()));
    }

    private ImageUpdate published(ImageUpdate update) {
        latest = update;
        untaken = untaken.then(update);
        return update;
    }

    private static List<Integer> list(int[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    public static int[] replicas(int... ids) {
        return ids;
    }
}
