package io.metaquorum.cli;

import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.tool.ImageReplay;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small metadata log as the quorum controller writes one (two leader epochs; brokers 4-6
 * registered and unfenced; topic demo with 3 partitions and configs; topic gone created,
 * deleted and created again; a leader move; a broker config; a fence), written through the
 * production {@link MetadataLogStore}. Offsets 0-23 in 13 batches.
 */
final class MetadataLogFixture {
    static final Uuid DEMO = TopicIds.uuid(0x5a1d5a1d5a1d5a1dL, 0x0000111122223333L);
    static final Uuid GONE_FIRST = TopicIds.uuid(0x1111L, 0x2222L);
    static final Uuid GONE_SECOND = TopicIds.uuid(0x3333L, 0x4444L);
    static final long END_OFFSET = 24;
    /** A batch boundary in epoch 2, where the snapshot variant's snapshot ends. */
    static final OffsetAndEpoch SNAPSHOT_ID = new OffsetAndEpoch(16, 2);
    private static final long TIME_MS = 1_764_583_200_000L;

    private MetadataLogFixture() {
    }

    static List<RecordBatch> batches() {
        return batches("1000");
    }

    /** The log, with the value of the ConfigRecord at offset 20 given (to plant a difference). */
    static List<RecordBatch> batches(String retentionAt20) {
        List<RecordBatch> batches = new ArrayList<>();
        add(batches, 1, control(1));
        add(batches, 1, MetadataRecordCodec.featureLevel(MetadataRecordCodec.METADATA_VERSION_FEATURE, 1));
        add(batches, 1, register(4, 2), register(5, 3), register(6, 4));
        add(batches, 1, unfence(4, 2), unfence(5, 3), unfence(6, 4));
        add(batches, 1, topic("demo", DEMO), partition(DEMO, 0, 4, 5, 6), partition(DEMO, 1, 5, 6, 4),
                partition(DEMO, 2, 6, 4, 5), config(ConfigResourceType.CONFIG_RESOURCE_TOPIC, "demo",
                        "cleanup.policy", "compact"));
        add(batches, 1, topic("gone", GONE_FIRST), partition(GONE_FIRST, 0, 4, 5));
        add(batches, 2, control(2));
        add(batches, 2, MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord.newBuilder()
                .setTopicId(DEMO).setPartition(0).setLeader(5).setHasIsr(true).addIsr(5).addIsr(6).setLeaderEpoch(1)
                .setPartitionEpoch(1)).build());
        add(batches, 2, MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                .setTopicId(GONE_FIRST)).build());
        add(batches, 2, topic("gone", GONE_SECOND), partition(GONE_SECOND, 0, 6, 4));
        add(batches, 2, config(ConfigResourceType.CONFIG_RESOURCE_TOPIC, "demo", "retention.ms", retentionAt20),
                config(ConfigResourceType.CONFIG_RESOURCE_TOPIC, "demo", "cleanup.policy", null));
        add(batches, 2, config(ConfigResourceType.CONFIG_RESOURCE_BROKER, "4", "log.cleaner.threads", "2"));
        add(batches, 2, MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder().setBrokerId(6)
                .setBrokerEpoch(4)).build());
        return batches;
    }

    /** Writes {@code batches} into a new log in {@code dir}, through the production store. */
    static Path write(Path dir, List<RecordBatch> batches) {
        try (MetadataLogStore store = MetadataLogStore.open(dir)) {
            append(store, batches);
        }
        return dir;
    }

    static void append(MetadataLogStore store, List<RecordBatch> batches) {
        batches.forEach(store.raftLog()::append);
        store.raftLog().flush();
    }

    /** The log, then a snapshot at {@link #SNAPSHOT_ID} installed as a node takes one (the log start moves). */
    static Path writeWithSnapshot(Path dir) {
        List<RecordBatch> batches = batches();
        try (MetadataLogStore store = MetadataLogStore.open(dir)) {
            append(store, batches);
            MetadataImage image = replay(batches, SNAPSHOT_ID.offset() - 1);
            new SnapshotTask(SNAPSHOT_ID, image, TIME_MS).storeIn(store.raftLog(), new SnapshotLimits(4, 1 << 20));
        }
        return dir;
    }

    /** The image after every record up to and including {@code lastOffset}, replayed from the batches in memory. */
    static MetadataImage replay(List<RecordBatch> batches, long lastOffset) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        for (RecordBatch batch : batches) {
            ImageReplay.replayBatch(delta, batch, lastOffset);
        }
        return delta.apply();
    }

    private static void add(List<RecordBatch> batches, int epoch, Object... records) {
        long base = batches.isEmpty() ? 0 : RecordBatches.endOffset(batches.get(batches.size() - 1));
        boolean control = records[0] instanceof ControlRecord;
        List<com.google.protobuf.ByteString> bytes = new ArrayList<>();
        for (Object record : records) {
            bytes.add(control ? ((ControlRecord) record).toByteString()
                    : MetadataRecordCodec.encode((MetadataRecord) record));
        }
        batches.add(RecordBatches.build(base, epoch, TIME_MS + base, control, bytes));
    }

    private static ControlRecord control(int leader) {
        return ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord.newBuilder().setLeaderId(leader)
                .addVoters(1).addVoters(2).addVoters(3).addGrantingVoters(leader)).build();
    }

    private static MetadataRecord register(int id, long epoch) {
        return MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(id)
                .setIncarnationId(TopicIds.uuid(id, id * 7L)).setBrokerEpoch(epoch).setFenced(true)
                .addEndpoints(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                        .setPort(19090 + id))).build();
    }

    private static MetadataRecord unfence(int id, long epoch) {
        return MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder().setBrokerId(id)
                .setBrokerEpoch(epoch)).build();
    }

    private static MetadataRecord topic(String name, Uuid id) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id)).build();
    }

    private static MetadataRecord partition(Uuid topic, int index, int... replicas) {
        PartitionRecord.Builder record = PartitionRecord.newBuilder().setTopicId(topic).setPartition(index)
                .setLeader(replicas[0]);
        for (int replica : replicas) {
            record.addReplicas(replica).addIsr(replica);
        }
        return MetadataRecord.newBuilder().setPartition(record).build();
    }

    private static MetadataRecord config(ConfigResourceType type, String name, String key, String value) {
        ConfigRecord.Builder record = ConfigRecord.newBuilder().setResourceType(type).setResourceName(name).setName(key);
        if (value != null) {
            record.setValue(value);
        }
        return MetadataRecord.newBuilder().setConfig(record).build();
    }
}
