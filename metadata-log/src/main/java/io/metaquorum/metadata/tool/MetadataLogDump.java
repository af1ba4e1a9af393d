package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import com.google.protobuf.util.JsonFormat;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.record.RecordTypes;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.StorageException;
import java.util.List;
import java.util.function.Consumer;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * {@code mq-metadata dump}: the records of a metadata log, one line each, in offset order.
 * Text lines read {@code offset: 12 epoch: 3 type: FeatureLevelRecord record: {name: "..."}};
 * JSON lines are {@code {"offset": 12, "epoch": 3, "type": "FeatureLevelRecord", "record": {...}}}
 * with the body printed by protobuf's JsonFormat. Control records print under their own
 * type names ({@code LeaderChangeRecord}). Works on any {@link RaftLog}; reading stops at
 * the log end or after {@code maxRecords}.
 */
public final class MetadataLogDump {
    /** Bytes asked of the log per read. */
    static final int READ_BYTES_MAX = 1 << 20;

    private static final JsonFormat.Printer JSON = JsonFormat.printer()
            .omittingInsignificantWhitespace()
            .alwaysPrintFieldsWithNoPresence();

    private MetadataLogDump() {
    }

    /**
     * Prints records from {@code fromOffset} (raised to the log start) on; returns how many.
     *
     * @param maxRecords at most this many lines, &gt; 0
     */
    public static long dump(RaftLog log, long fromOffset, long maxRecords, boolean json, Consumer<String> out) {
        long offset = Math.max(fromOffset, log.startOffset());
        long printed = 0;
        while (offset < log.endOffset() && printed < maxRecords) {
            List<RecordBatch> batches = log.read(offset, READ_BYTES_MAX);
            if (batches.isEmpty()) {
                break;
            }
            for (RecordBatch batch : batches) {
                long recordOffset = batch.getBaseOffset();
                for (ByteString bytes : RecordBatches.records(batch)) {
                    if (recordOffset >= offset && printed < maxRecords) {
                        out.accept(line(recordOffset, batch.getEpoch(), batch.getControl(), bytes, json));
                        printed++;
                    }
                    recordOffset++;
                }
                offset = Math.max(offset, recordOffset);
            }
        }
        return printed;
    }

    /** One record's line. */
    public static String line(long offset, int epoch, boolean control, ByteString bytes, boolean json) {
        String type;
        Message body;
        if (control) {
            ControlRecord record = MetadataRecordCodec.decodeControl(bytes, offset);
            type = RecordTypes.typeName(record);
            body = RecordTypes.body(record);
        } else {
            MetadataRecord record = MetadataRecordCodec.decode(bytes, offset);
            type = RecordTypes.typeName(record);
            body = RecordTypes.body(record);
        }
        if (json) {
            return "{\"offset\": " + offset + ", \"epoch\": " + epoch + ", \"type\": \"" + type
                    + "\", \"record\": " + toJson(body, offset) + "}";
        }
        return "offset: " + offset + " epoch: " + epoch + " type: " + type + " record: {"
                + TextFormat.printer().emittingSingleLine(true).printToString(body).trim() + "}";
    }

    private static String toJson(Message body, long offset) {
        try {
            return JSON.print(body);
        } catch (InvalidProtocolBufferException e) {
            throw new StorageException("record at offset " + offset + " cannot be printed as JSON: " + e.getMessage());
        }
    }
}
