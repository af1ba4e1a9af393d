package io.metaquorum.bench;

import io.metaquorum.metadata.controller.ControllerState;
import io.metaquorum.metadata.controller.CreateTopicPolicy;
import io.metaquorum.metadata.controller.ReplicationControlManager;
import io.metaquorum.metadata.controller.ReplicationDefaults;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The metadata image at scale ({@code image-scale} shape): replays
 * {@code topics × partitionsPerTopic} RF-3 partitions on 6 brokers through
 * {@link MetadataDelta}, one record at a time as the loader does, and prints the build time,
 * the heap the image retains after a full GC, the mean time of one PartitionChangeRecord
 * applied on top (a new delta and image each time), and the time to write the image as
 * records and replay them into an equal image (a snapshot without the bytes), and the time
 * the replication manager takes to decide the partition changes of fencing one broker.
 *
 * <p>Run: {@code java -Xmx4g -cp <classpath> io.metaquorum.bench.ImageScaleBench [topics]
 * [partitionsPerTopic]} (README, "Metadata image").
 */
public final class ImageScaleBench {
    private static final int BROKERS = 6;
    private static final int UPDATES = 100_000;

    private ImageScaleBench() {
    }

    public static void main(String[] args) {
        int topics = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int partitionsPerTopic = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        for (int round = 1; round <= 3; round++) {
            long heapBefore = PersistentMapBench.usedHeapAfterGc();
            long start = System.nanoTime();
            MetadataImage image = build(topics, partitionsPerTopic);
            long buildMs = (System.nanoTime() - start) / 1_000_000;
            long heapMiB = (PersistentMapBench.usedHeapAfterGc() - heapBefore) >> 20;
            long updateNs = meanUpdateNs(image, topics, partitionsPerTopic);
            start = System.nanoTime();
            List<MetadataRecord> records = image.toRecords();
            long toRecordsMs = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            MetadataImage reloaded = replay(records, image.lastCommittedOffset() - records.size() + 1);
            long reloadMs = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            boolean equal = reloaded.equals(image);
            long equalsMs = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            int fenceRecords = fenceChanges(image);
            long fenceMs = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("image round %d: fencing broker 0 moves %,d partitions: %,d ms to decide%n", round,
                    fenceRecords, fenceMs);
            System.out.printf("image round %d: %,d partitions (%,d topics x %d, RF 3): build %,d ms, heap %,d MiB, "
                            + "one partition update %,d ns (mean of %,d), toRecords %,d ms (%,d records), "
                            + "replay of those %,d ms, equals %s in %,d ms%n", round,
                    (long) topics * partitionsPerTopic, topics, partitionsPerTopic, buildMs, heapMiB, updateNs,
                    UPDATES, toRecordsMs, records.size(), reloadMs, equal, equalsMs);
        }
    }

    private static MetadataImage build(int topics, int partitionsPerTopic) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (int b = 0; b < BROKERS; b++) {
            delta.replay(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(b)
                    .setIncarnationId(TopicIds.uuid(9, b)).setBrokerEpoch(offset).addEndpoints(BrokerEndpoint
                            .newBuilder().setName("PLAINTEXT").setHost("localhost").setPort(9092 + b))).build(),
                    offset++, 1);
        }
        for (int t = 0; t < topics; t++) {
            Uuid id = topicId(t);
            delta.replay(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName("topic-" + t)
                    .setTopicId(id)).build(), offset++, 1);
            for (int p = 0; p < partitionsPerTopic; p++) {
                int first = (t + p) % BROKERS;
                List<Integer> replicas = List.of(first, (first + 1) % BROKERS, (first + 2) % BROKERS);
                delta.replay(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id)
                        .setPartition(p).addAllReplicas(replicas).addAllIsr(replicas).setLeader(first)).build(),
                        offset++, 1);
            }
        }
        return delta.apply();
    }

    private static long meanUpdateNs(MetadataImage image, int topics, int partitionsPerTopic) {
        long offset = image.committedEndOffset();
        long start = System.nanoTime();
        MetadataImage last = image;
        for (int i = 0; i < UPDATES; i++) {
            int t = (int) ((i * 7919L) % topics);
            int p = (int) ((i * 31L) % partitionsPerTopic);
            TopicImage topic = image.topics().topic("topic-" + t);
            int[] isr = topic.partition(p).isr();
            MetadataDelta delta = new MetadataDelta(image);
            delta.replay(MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord.newBuilder()
                    .setTopicId(topic.id().toUuid()).setPartition(p).setLeader(isr[1]).setLeaderEpoch(1)
                    .setPartitionEpoch(1)).build(), offset, 1);
            last = delta.apply();
        }
        long ns = (System.nanoTime() - start) / UPDATES;
        if (last.topics().topicCount() != topics) {
            throw new IllegalStateException("lost a topic");
        }
        return ns;
    }

    /** The PartitionChangeRecords ReplicationControlManager decides when broker 0 is fenced. */
    private static int fenceChanges(MetadataImage image) {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder().setBrokerId(0)
                .setBrokerEpoch(0)).build(), image.committedEndOffset(), 1);
        ReplicationControlManager replication = new ReplicationControlManager(new ControllerState(image),
                ReplicationDefaults.KAFKA, CreateTopicPolicy.NONE, new SplittableRandom(1));
        return replication.partitionChangesAfterFence(delta.apply(), 0).size();
    }

    private static MetadataImage replay(List<MetadataRecord> records, long firstOffset) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = firstOffset;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, 1);
        }
        return delta.apply();
    }

    private static Uuid topicId(int t) {
        return TopicIds.uuid(0x5eed_0000_0000_0000L | t, 0x7000_0000_0000_0000L ^ (t * 0x9E3779B97F4A7C15L));
    }
}
