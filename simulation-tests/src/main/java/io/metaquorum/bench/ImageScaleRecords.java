package io.metaquorum.bench;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;

/**
 * The committed log of the {@code image-scale} workload, made batch by batch as it is
 * replayed (never all at once): {@code brokers} RegisterBrokerRecords, then per topic a
 * TopicRecord and its PartitionRecords, RF 3, replicas and leaders spread round-robin,
 * in batches of {@code batchRecordsMax} records, all in epoch 1. ({@code reconcile-pass} takes
 * its batches one topic at a time and removes topics again.)
 *
 * <p>Invariant: {@code nextOffset} is the offset of the next record made; {@code topic} and
 * {@code partition} say which record comes next ({@code partition == -1}: the TopicRecord).
 */
final class ImageScaleRecords {
    static final int EPOCH = 1;

    private final int brokers;
    private final int topics;
    private final int partitionsPerTopic;
    private final int batchRecordsMax;
    private long nextOffset;
    private int broker;
    private int topic;
    private int partition = -1;

    ImageScaleRecords(int brokers, int topics, int partitionsPerTopic, int batchRecordsMax) {
        this.brokers = brokers;
        this.topics = topics;
        this.partitionsPerTopic = partitionsPerTopic;
        this.batchRecordsMax = batchRecordsMax;
    }

    /** The records of the brokers and the first {@code topicCount} topics: where topic {@code topicCount} starts. */
    long recordCount(int topicCount) {
        return brokers + (long) topicCount * (1 + partitionsPerTopic);
    }

    /** The records the whole log holds. */
    long recordCount() {
        return brokers + (long) topics * (1 + partitionsPerTopic);
    }

    /** The next batch, or null once every record was made. */
    RecordBatch nextBatch() {
        return nextBatch(batchRecordsMax);
    }

    /** The next batch of at most {@code recordsMax} records, or null once every record was made. */
    RecordBatch nextBatch(int recordsMax) {
        List<ByteString> records = new ArrayList<>(recordsMax);
        long baseOffset = nextOffset;
        while (records.size() < recordsMax) {
            MetadataRecord record = nextRecord();
            if (record == null) {
                break;
            }
            records.add(MetadataRecordCodec.encode(record));
            nextOffset++;
        }
        return records.isEmpty() ? null : RecordBatches.build(baseOffset, EPOCH, baseOffset, false, records);
    }

    private MetadataRecord nextRecord() {
        if (broker < brokers) {
            int id = broker++;
            return MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(id)
                    .setIncarnationId(TopicIds.uuid(9, id)).setBrokerEpoch(id).addEndpoints(BrokerEndpoint.newBuilder()
                            .setName("PLAINTEXT").setHost("127.0.0.1").setPort(9092 + id))).build();
        }
        if (topic >= topics) {
            return null;
        }
        Uuid id = topicId(topic);
        if (partition < 0) {
            partition = 0;
            return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(String.format("topic-%07d",
                    topic)).setTopicId(id)).build();
        }
        int first = (topic + partition) % brokers;
        PartitionRecord.Builder record = PartitionRecord.newBuilder().setTopicId(id).setPartition(partition)
                .setLeader(first).setLeaderEpoch(0).setPartitionEpoch(0);
        for (int r = 0; r < 3; r++) {
            record.addReplicas((first + r) % brokers).addIsr((first + r) % brokers);
        }
        if (++partition == partitionsPerTopic) {
            partition = -1;
            topic++;
        }
        return MetadataRecord.newBuilder().setPartition(record).build();
    }

    /**
     * A batch of one RemoveTopicRecord for topic {@code t}, made already, at the next offset:
     * {@code reconcile-pass} removes each topic it adds, so the image keeps its size.
     */
    RecordBatch removeTopic(int t) {
        MetadataRecord record = MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(topicId(t))).build();
        long offset = nextOffset++;
        return RecordBatches.build(offset, EPOCH, offset, false, List.of(MetadataRecordCodec.encode(record)));
    }

    private static Uuid topicId(int t) {
        return TopicIds.uuid(0x5eed_0000_0000_0000L | t, 0x7000_0000_0000_0000L ^ (t * 0x9E3779B97F4A7C15L));
    }
}
