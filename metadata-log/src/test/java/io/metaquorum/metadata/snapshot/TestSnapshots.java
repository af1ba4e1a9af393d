package io.metaquorum.metadata.snapshot;

import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Snapshots in memory for tests: written through the production path, read in small chunks. */
public final class TestSnapshots {
    private TestSnapshots() {
    }

    /** The content {@link SnapshotTask#writeTo} produces for {@code task}. */
    public static byte[] write(SnapshotTask task, SnapshotLimits limits) {
        InMemorySnapshotWriter writer = new InMemorySnapshotWriter(task.id());
        task.writeTo(writer, limits);
        return writer.frozenContent();
    }

    /**
     * The records of a cluster: {@code brokers} registrations, then {@code topics} topics of
     * {@code partitionsPerTopic} RF-3 partitions (replicas round-robin over the brokers), with
     * a topic config on every tenth topic.
     */
    public static List<MetadataRecord> clusterRecords(int brokers, int topics, int partitionsPerTopic, int firstTopic) {
        List<MetadataRecord> records = new ArrayList<>();
        if (firstTopic == 0) {
            for (int b = 0; b < brokers; b++) {
                records.add(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder()
                        .setBrokerId(b).setIncarnationId(TopicIds.uuid(9, b)).setBrokerEpoch(b)
                        .addEndpoints(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                                .setPort(9092 + b))).build());
            }
        }
        for (int t = firstTopic; t < firstTopic + topics; t++) {
            Uuid id = TopicIds.uuid(0x1234_0000L + t, 0x5678_0000L + t);
            String name = "topic-" + t;
            records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id))
                    .build());
            for (int p = 0; p < partitionsPerTopic; p++) {
                int first = (t + p) % brokers;
                PartitionRecord.Builder partition = PartitionRecord.newBuilder().setTopicId(id).setPartition(p)
                        .setLeader(first);
                for (int r = 0; r < 3; r++) {
                    partition.addReplicas((first + r) % brokers).addIsr((first + r) % brokers);
                }
                records.add(MetadataRecord.newBuilder().setPartition(partition).build());
            }
            if (t % 10 == 0) {
                records.add(MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                        .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName(name)
                        .setName("retention.ms").setValue("86400000")).build());
            }
        }
        return records;
    }

    /** {@code content} as snapshot {@code id}, handing out at most {@code chunkBytesMax} bytes per read. */
    public static SnapshotReader reader(OffsetAndEpoch id, byte[] content, int chunkBytesMax) {
        return new SnapshotReader() {
            @Override
            public OffsetAndEpoch id() {
                return id;
            }

            @Override
            public long sizeBytes() {
                return content.length;
            }

            @Override
            public byte[] read(long position, int maxBytes) {
                if (position < 0 || position > content.length) {
                    throw new IllegalArgumentException("position " + position + " outside " + content.length);
                }
                int from = (int) position;
                return Arrays.copyOfRange(content, from, from + Math.min(Math.min(maxBytes, chunkBytesMax),
                        content.length - from));
            }
        };
    }
}
