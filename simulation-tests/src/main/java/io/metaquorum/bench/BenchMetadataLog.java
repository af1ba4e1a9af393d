package io.metaquorum.bench;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.tool.ImageReplay;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A metadata log for the inspection benchmarks, written through the production
 * {@link MetadataLogStore}: a leader change, the metadata version, three brokers registered
 * and unfenced, then topics of {@code partitionsPerTopic} partitions (replication factor 3),
 * one batch per topic as CreateTopics appends it, until {@code partitions} partitions exist.
 * Optionally a snapshot of the final image, installed as a node takes one.
 */
final class BenchMetadataLog {
    static final int BROKERS = 3;
    private static final long TIME_MS = 1_764_583_200_000L;

    private BenchMetadataLog() {
    }

    /** Writes the log into {@code dir}; returns its end offset (the record count). */
    static long write(Path dir, long partitions, int partitionsPerTopic, boolean snapshot) {
        try (MetadataLogStore store = MetadataLogStore.open(dir)) {
            MetadataDelta delta = snapshot ? new MetadataDelta(MetadataImage.EMPTY) : null;
            long offset = append(store, delta, 0, true, List.of(ControlRecord.newBuilder().setLeaderChange(
                    LeaderChangeRecord.newBuilder().setLeaderId(1).addVoters(1)).build().toByteString()));
            List<MetadataRecord> setup = new ArrayList<>();
            setup.add(MetadataRecordCodec.featureLevel(MetadataRecordCodec.METADATA_VERSION_FEATURE, 1));
            for (int broker = 0; broker < BROKERS; broker++) {
                setup.add(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                        .setBrokerId(broker).setIncarnationId(TopicIds.uuid(7, broker)).setBrokerEpoch(1 + broker)
                        .setFenced(true).addEndpoints(BrokerEndpoint.newBuilder().setName("PLAINTEXT")
                                .setHost("127.0.0.1").setPort(19094 + broker))).build());
            }
            for (int broker = 0; broker < BROKERS; broker++) {
                setup.add(MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder()
                        .setBrokerId(broker).setBrokerEpoch(1 + broker)).build());
            }
            offset = append(store, delta, offset, false, MetadataRecordCodec.encodeAll(setup));
            for (long topic = 0, written = 0; written < partitions; topic++) {
                int count = (int) Math.min(partitionsPerTopic, partitions - written);
                offset = append(store, delta, offset, false, MetadataRecordCodec.encodeAll(topic(topic, count)));
                written += count;
            }
            store.raftLog().flush();
            if (snapshot) {
                OffsetAndEpoch id = new OffsetAndEpoch(offset, 1);
                new SnapshotTask(id, delta.apply(), TIME_MS).storeIn(store.raftLog(), SnapshotLimits.DEFAULTS);
            }
            return offset;
        }
    }

    private static List<MetadataRecord> topic(long index, int partitions) {
        List<MetadataRecord> records = new ArrayList<>(partitions + 1);
        var id = TopicIds.uuid(0x6d71000000000000L | index, index * 31 + 17);
        records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(String.format("topic-%06d",
                index)).setTopicId(id)).build());
        for (int p = 0; p < partitions; p++) {
            PartitionRecord.Builder partition = PartitionRecord.newBuilder().setTopicId(id).setPartition(p);
            for (int r = 0; r < BROKERS; r++) {
                int broker = (p + r) % BROKERS;
                partition.addReplicas(broker).addIsr(broker);
            }
            records.add(MetadataRecord.newBuilder().setPartition(partition.setLeader(p % BROKERS)).build());
        }
        return records;
    }

    private static long append(MetadataLogStore store, MetadataDelta delta, long offset, boolean control,
                               List<ByteString> records) {
        RecordBatch batch = RecordBatches.build(offset, 1, TIME_MS + offset, control, records);
        store.raftLog().append(batch);
        if (delta != null) {
            ImageReplay.replayBatch(delta, batch, Long.MAX_VALUE);
        }
        return RecordBatches.endOffset(batch);
    }
}
