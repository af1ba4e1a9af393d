package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.metadata.record.RecordText;
import io.metaquorum.metadata.record.RecordTypes;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.MetadataRecord;

/**
 * One record of a log or snapshot, decoded: its offset and epoch, its printed type name and
 * body, and the {@link MetadataRecord} itself for a data record (null for raft's control
 * records, which are shown under their own type names).
 */
public record DecodedRecord(long offset, int epoch, boolean control, String type, Message body,
                            MetadataRecord metadata) {
    /** Decodes the record at {@code offset}; a {@code CorruptLogException} naming it if it does not decode. */
    public static DecodedRecord decode(long offset, int epoch, boolean control, ByteString bytes) {
        if (control) {
            ControlRecord record = MetadataRecordCodec.decodeControl(bytes, offset);
            return new DecodedRecord(offset, epoch, true, RecordTypes.typeName(record), RecordTypes.body(record), null);
        }
        MetadataRecord record = MetadataRecordCodec.decode(bytes, offset);
        return new DecodedRecord(offset, epoch, false, RecordTypes.typeName(record), RecordTypes.body(record), record);
    }

    /** {@code | offset: 12 epoch: 3 type: TopicRecord record: {name: "demo" topic_id: "…"}}. */
    public String textLine() {
        StringBuilder out = new StringBuilder(128).append("| offset: ").append(offset).append(" epoch: ").append(epoch)
                .append(" type: ").append(type).append(control ? " (control)" : "").append(" record: {");
        RecordText.appendText(body, out);
        return out.append('}').toString();
    }

    /** {@code {"offset": 12, "epoch": 3, "type": "TopicRecord", "record": {…}}} (docs/commands.md). */
    public String jsonLine() {
        StringBuilder out = new StringBuilder(128).append("{\"offset\": ").append(offset).append(", \"epoch\": ")
                .append(epoch).append(", \"type\": \"").append(type).append("\", \"record\": ");
        RecordText.appendJson(body, out);
        return out.append('}').toString();
    }
}
