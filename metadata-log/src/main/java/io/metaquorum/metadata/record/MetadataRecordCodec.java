package io.metaquorum.metadata.record;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.FeatureLevelRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.NoOpRecord;
import io.metaquorum.raft.storage.CorruptLogException;
import java.util.ArrayList;
import java.util.List;

/**
 * The record codec of the metadata log: a data batch holds serialized {@link MetadataRecord}s,
 * a control batch serialized {@link ControlRecord}s (raft's own). A record that does not
 * decode, or decodes to an empty oneof, is corrupt: the batch passed its CRC, so the writer
 * was broken, and the node must not build state on it.
 */
public final class MetadataRecordCodec {
    /** The feature every cluster records first (Kafka's {@code metadata.version}). */
    public static final String METADATA_VERSION_FEATURE = "metadata.version";
    public static final int METADATA_VERSION_LEVEL = 1;

    private MetadataRecordCodec() {
    }

    public static ByteString encode(MetadataRecord record) {
        return record.toByteString();
    }

    public static List<ByteString> encodeAll(List<MetadataRecord> records) {
        List<ByteString> encoded = new ArrayList<>(records.size());
        for (MetadataRecord record : records) {
            encoded.add(encode(record));
        }
        return encoded;
    }

    /** Decodes the record at {@code offset}; throws {@link CorruptLogException} naming it. */
    public static MetadataRecord decode(ByteString bytes, long offset) {
        MetadataRecord record;
        try {
            record = MetadataRecord.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptLogException(offset, "not a MetadataRecord: " + e.getMessage());
        }
        if (record.getRecordCase() == MetadataRecord.RecordCase.RECORD_NOT_SET) {
            throw new CorruptLogException(offset, "MetadataRecord without a record type");
        }
        return record;
    }

    /** Decodes the control record at {@code offset}; throws {@link CorruptLogException} naming it. */
    public static ControlRecord decodeControl(ByteString bytes, long offset) {
        ControlRecord record;
        try {
            record = ControlRecord.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptLogException(offset, "not a ControlRecord: " + e.getMessage());
        }
        if (record.getRecordCase() == ControlRecord.RecordCase.RECORD_NOT_SET) {
            throw new CorruptLogException(offset, "ControlRecord without a record type");
        }
        return record;
    }

    public static MetadataRecord featureLevel(String name, int level) {
        return MetadataRecord.newBuilder()
                .setFeatureLevel(FeatureLevelRecord.newBuilder().setName(name).setFeatureLevel(level))
                .build();
    }

    public static MetadataRecord noOp() {
        return MetadataRecord.newBuilder().setNoOp(NoOpRecord.getDefaultInstance()).build();
    }
}
