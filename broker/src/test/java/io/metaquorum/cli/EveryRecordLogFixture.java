package io.metaquorum.cli;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.FenceBrokerRecord;
import io.metaquorum.protocol.LeaderChangeRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.NoOpRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.protocol.RemoveUserScramCredentialRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.SnapshotFooterRecord;
import io.metaquorum.protocol.SnapshotHeaderRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.UnfenceBrokerRecord;
import io.metaquorum.protocol.UnregisterBrokerRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.storage.RecordBatches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A metadata log holding every record type {@code mq-metadata dump} prints (the 15 data
 * records and the 3 control records), strings that need escaping or are not ASCII, extreme
 * numbers, a batch without an append time, and partition records whose bytes another writer
 * could have produced: unpacked repeated fields, fields repeated (the last wins, messages
 * merge), unknown fields, a record version, non-minimal and 10-byte varints. Written through
 * the production {@link MetadataLogStore}; what dump prints of it is pinned by golden files.
 */
final class EveryRecordLogFixture {
    static final Uuid TOPIC = TopicIds.uuid(0x0123456789abcdefL, 0xfedcba9876543210L);
    private static final long TIME_MS = 1_764_583_200_000L;
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH = 2;

    private EveryRecordLogFixture() {
    }

    static Path write(Path dir) {
        try (MetadataLogStore store = MetadataLogStore.open(dir)) {
            batches().forEach(store.raftLog()::append);
            store.raftLog().flush();
        }
        return dir;
    }

    static List<RecordBatch> batches() {
        List<RecordBatch> batches = new ArrayList<>();
        add(batches, 1, TIME_MS, true, control(ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord
                .newBuilder().setLeaderId(1).addVoters(1).addVoters(2).addVoters(3).addGrantingVoters(1)).build()));
        add(batches, 1, TIME_MS + 1, false, data(MetadataRecord.newBuilder().setFeatureLevel(FeatureLevelRecord
                        .newBuilder().setName("metadata.version").setFeatureLevel(1)).build()),
                data(MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(4)
                        .setIncarnationId(TopicIds.uuid(-1L, Long.MIN_VALUE)).setBrokerEpoch(Long.MAX_VALUE)
                        .addEndpoints(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                                .setPort(19094))
                        .addEndpoints(BrokerEndpoint.newBuilder().setName("CONTROLLER").setHost("::1").setPort(0))
                        .setRack("rack \"a\" \\ é").setFenced(true)).build()),
                data(MetadataRecord.newBuilder().setUnfenceBroker(UnfenceBrokerRecord.newBuilder().setBrokerId(4)
                        .setBrokerEpoch(7)).build()),
                data(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder()
                        .setName("tópico-\u65e5\u672c-\ud83d\ude00\t\n\r\u0001").setTopicId(TOPIC)).build()),
                data(partition(TOPIC, 0, 4, 5, 6)));
        add(batches, 1, -1, false, partitionsAsAnotherWriterMightEncodeThem());
        add(batches, 2, TIME_MS + 2, true, control(ControlRecord.newBuilder().setLeaderChange(LeaderChangeRecord
                .newBuilder().setLeaderId(2).addVoters(1).addVoters(2).addVoters(3)).build()));
        add(batches, 2, TIME_MS + 3, false, data(MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord
                        .newBuilder().setTopicId(TOPIC).setPartition(0).setLeader(-1).setHasIsr(true).addIsr(5)
                        .setLeaderEpoch(Integer.MAX_VALUE).setPartitionEpoch(Integer.MIN_VALUE)).build()),
                data(MetadataRecord.newBuilder().setPartitionChange(PartitionChangeRecord.newBuilder()
                        .setTopicId(TOPIC).setPartition(1).setHasReplicas(true).addReplicas(6)).build()),
                data(config(ConfigResourceType.CONFIG_RESOURCE_TOPIC, "tópico", "cleanup.policy", "compact")),
                data(config(ConfigResourceType.CONFIG_RESOURCE_TOPIC, "tópico", "cleanup.policy", null)),
                data(config(ConfigResourceType.CONFIG_RESOURCE_BROKER, "4", "log.cleaner.threads", "")),
                data(config(ConfigResourceType.CONFIG_RESOURCE_UNKNOWN, "", "", "\"quoted\" \\ value")));
        add(batches, 2, TIME_MS + 4, false, data(MetadataRecord.newBuilder().setAccessControlEntry(
                        AccessControlEntryRecord.newBuilder().setId(TopicIds.uuid(42, 43)).setResourceType(2)
                        .setResourceName("tópico").setPatternType(3).setPrincipal("User:alice").setHost("*")
                        .setOperation(2).setPermissionType(3)).build()),
                data(MetadataRecord.newBuilder().setRemoveAccessControlEntry(RemoveAccessControlEntryRecord
                        .newBuilder().setId(TopicIds.uuid(42, 43))).build()),
                data(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder().setTopicId(TOPIC))
                        .build()),
                data(MetadataRecord.newBuilder().setFenceBroker(FenceBrokerRecord.newBuilder().setBrokerId(4)
                        .setBrokerEpoch(8)).build()),
                data(MetadataRecord.newBuilder().setUnregisterBroker(UnregisterBrokerRecord.newBuilder()
                        .setBrokerId(4).setBrokerEpoch(9)).build()),
                data(MetadataRecord.newBuilder().setNoOp(NoOpRecord.getDefaultInstance()).build()),
                data(MetadataRecord.newBuilder().setVersion(3).setTopic(TopicRecord.newBuilder().setName("")).build()));
        add(batches, 2, 0, true, control(ControlRecord.newBuilder().setSnapshotHeader(SnapshotHeaderRecord
                        .newBuilder().setVersion(0).setLastContainedLogTimeMs(TIME_MS)).build()),
                control(ControlRecord.newBuilder().setSnapshotFooter(SnapshotFooterRecord.newBuilder()
                        .setVersion(0)).build()));
        // SCRAM credentials: dump prints their salts and keys as lengths only, never the bytes.
        add(batches, 2, TIME_MS + 5, false, data(MetadataRecord.newBuilder().setUserScramCredential(
                        UserScramCredentialRecord.newBuilder().setName("alice").setMechanism(1)
                        .setSalt(ByteString.copyFromUtf8("salt")).setStoredKey(ByteString.copyFrom(new byte[32]))
                        .setServerKey(ByteString.copyFrom(new byte[32])).setIterations(8192)).build()),
                data(MetadataRecord.newBuilder().setRemoveUserScramCredential(RemoveUserScramCredentialRecord
                        .newBuilder().setName("alice").setMechanism(1)).build()));
        return batches;
    }

    /** Partition records in every encoding protobuf's parser accepts, and the plain record too. */
    private static ByteString[] partitionsAsAnotherWriterMightEncodeThem() {
        return new ByteString[] {
            data(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setPartition(7)
                    .setLeader(-1).setLeaderEpoch(Integer.MIN_VALUE).setPartitionEpoch(Integer.MAX_VALUE)).build()),
            data(MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder()
                    .setTopicId(TopicIds.ZERO)).build()),
            envelope(wire(out -> {
                uuidField(out, 1, 5, 6);
                out.writeInt32(2, 1);
                out.writeTag(3, WIRE_VARINT);
                out.writeUInt32NoTag(4);
                out.writeTag(3, WIRE_VARINT);
                out.writeInt32NoTag(-5);
                packed(out, 3, 6, 7);
                packed(out, 4);
                out.writeTag(4, WIRE_VARINT);
                out.writeUInt32NoTag(4);
                out.writeInt32(5, 4);
                out.writeInt32(6, 1);
                out.writeInt32(7, 2);
            })),
            envelope(wire(out -> {
                out.writeInt32(2, 1);
                out.writeInt32(2, 2);
                out.writeUInt64(99, 12345);
                out.writeString(100, "unknown");
                out.writeTag(5, WIRE_VARINT);
                out.writeRawBytes(new byte[] {(byte) 0x85, (byte) 0x80, 0x00});
                out.writeTag(6, WIRE_VARINT);
                out.writeUInt64NoTag((1L << 33) + 7);
                uuidField(out, 1, 1, 0);
                out.writeTag(1, WIRE_LENGTH);
                out.writeUInt32NoTag(9);
                out.writeFixed64(2, 2);
            })),
            wire(out -> {
                out.writeInt32(15, 1);
                out.writeByteArray(2, wire(inner -> inner.writeInt32(2, 3)).toByteArray());
                out.writeByteArray(2, wire(inner -> packed(inner, 3, 1, 2)).toByteArray());
                out.writeInt32(15, 0);
            }),
            wire(out -> out.writeByteArray(2, new byte[0])),
        };
    }

    private static ByteString envelope(ByteString partition) {
        return wire(out -> out.writeBytes(2, partition));
    }

    private static void uuidField(CodedOutputStream out, int field, long most, long least) throws IOException {
        out.writeTag(field, WIRE_LENGTH);
        out.writeUInt32NoTag(18);
        out.writeTag(1, WIRE_FIXED64);
        out.writeFixed64NoTag(most);
        out.writeTag(2, WIRE_FIXED64);
        out.writeFixed64NoTag(least);
    }

    private static void packed(CodedOutputStream out, int field, int... values) throws IOException {
        int size = 0;
        for (int value : values) {
            size += CodedOutputStream.computeInt32SizeNoTag(value);
        }
        out.writeTag(field, WIRE_LENGTH);
        out.writeUInt32NoTag(size);
        for (int value : values) {
            out.writeInt32NoTag(value);
        }
    }

    private interface WireWriter {
        void write(CodedOutputStream out) throws IOException;
    }

    private static ByteString wire(WireWriter writer) {
        ByteString.Output bytes = ByteString.newOutput();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            writer.write(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteString();
    }

    private static void add(List<RecordBatch> batches, int epoch, long appendTimeMs, boolean control,
                            ByteString... records) {
        long base = batches.isEmpty() ? 0 : RecordBatches.endOffset(batches.get(batches.size() - 1));
        batches.add(RecordBatches.build(base, epoch, appendTimeMs, control, List.of(records)));
    }

    private static ByteString data(MetadataRecord record) {
        return record.toByteString();
    }

    private static ByteString control(ControlRecord record) {
        return record.toByteString();
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
