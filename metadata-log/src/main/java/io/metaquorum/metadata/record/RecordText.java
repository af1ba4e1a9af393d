package io.metaquorum.metadata.record;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;

/**
 * Record bodies as the tools print them: a one-line text form ({@code name: "demo" topic_id:
 * "x9VhI4eNQmqgq5o4fXoVtA" replicas: [4, 5, 6]}) and JSON ({@code {"name": "demo", "topicId":
 * "x9VhI4eNQmqgq5o4fXoVtA"}}, protobuf's JSON field names). Ids ({@link Uuid} fields: topic,
 * incarnation, ACL) print in Kafka's 22-character form (docs/commands.md), 64-bit numbers as
 * numbers, enums by name. A field with presence prints only when set; the others always
 * (as protobuf's {@code alwaysPrintFieldsWithNoPresence}).
 *
 * <p>Walks the descriptors directly instead of going through {@code TextFormat} or
 * {@code JsonFormat}: both print ids as two numbers, and both are several times slower.
 */
public final class RecordText {
    private RecordText() {
    }

    public static String text(Message body) {
        StringBuilder out = new StringBuilder(96);
        appendText(body, out);
        return out.toString();
    }

    public static String json(Message body) {
        StringBuilder out = new StringBuilder(96);
        appendJson(body, out);
        return out.toString();
    }

    /** {@code field: value} pairs separated by spaces, messages in braces. */
    public static void appendText(Message body, StringBuilder out) {
        appendFields(body, out, false);
    }

    public static void appendJson(Message body, StringBuilder out) {
        out.append('{');
        appendFields(body, out, true);
        out.append('}');
    }

    private static void appendFields(Message body, StringBuilder out, boolean json) {
        if (body instanceof PartitionRecord partition) {
            // Partition records are nearly all of a large log: printed without the descriptor walk.
            appendPartition(partition, out, json);
            return;
        }
        appendFieldsByDescriptor(body, out, json);
    }

    /** Exactly what {@link #appendFieldsByDescriptor} prints for a PartitionRecord (a test holds them equal). */
    static void appendPartition(PartitionRecord partition, StringBuilder out, boolean json) {
        if (partition.hasTopicId()) {
            out.append(json ? "\"topicId\": " : "topic_id: ");
            appendString(TopicIds.toBase64(partition.getTopicId()), out);
            out.append(json ? ", " : " ");
        }
        out.append(json ? "\"partition\": " : "partition: ").append(partition.getPartition());
        out.append(json ? ", \"replicas\": " : " replicas: ");
        appendInts(partition.getReplicasList(), out);
        out.append(json ? ", \"isr\": " : " isr: ");
        appendInts(partition.getIsrList(), out);
        out.append(json ? ", \"leader\": " : " leader: ").append(partition.getLeader());
        out.append(json ? ", \"leaderEpoch\": " : " leader_epoch: ").append(partition.getLeaderEpoch());
        out.append(json ? ", \"partitionEpoch\": " : " partition_epoch: ").append(partition.getPartitionEpoch());
    }

    private static void appendInts(List<Integer> values, StringBuilder out) {
        out.append('[');
        for (int i = 0; i < values.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(values.get(i).intValue());
        }
        out.append(']');
    }

    static void appendFieldsByDescriptor(Message body, StringBuilder out, boolean json) {
        boolean first = true;
        for (FieldPlan plan : FieldPlan.of(body.getDescriptorForType())) {
            FieldDescriptor field = plan.field();
            if (!plan.repeated() && plan.presence() && !body.hasField(field)) {
                continue;
            }
            if (!first) {
                out.append(json ? ", " : " ");
            }
            first = false;
            if (json) {
                out.append('"').append(plan.jsonName()).append("\": ");
            } else {
                out.append(plan.name()).append(": ");
            }
            if (plan.repeated()) {
                out.append('[');
                int count = body.getRepeatedFieldCount(field);
                for (int i = 0; i < count; i++) {
                    out.append(i == 0 ? "" : ", ");
                    appendValue(field, body.getRepeatedField(field, i), out, json);
                }
                out.append(']');
            } else {
                appendValue(field, body.getField(field), out, json);
            }
        }
    }

    /**
     * What printing a field needs, computed once per message type: descriptor calls are not
     * free, and every record of a dump asks them again.
     */
    private record FieldPlan(FieldDescriptor field, String name, String jsonName, boolean repeated,
                             boolean presence) {
        /** The plans of every top-level message of the two record schemas, by index in its file; fixed at load. */
        private static final FileDescriptor METADATA_FILE = MetadataRecord.getDescriptor().getFile();
        private static final FileDescriptor RAFT_FILE = ControlRecord.getDescriptor().getFile();
        private static final List<List<FieldPlan>> METADATA_PLANS = plansOf(METADATA_FILE);
        private static final List<List<FieldPlan>> RAFT_PLANS = plansOf(RAFT_FILE);

        static List<FieldPlan> of(Descriptor type) {
            if (type.getContainingType() == null && type.getFile() == METADATA_FILE) {
                return METADATA_PLANS.get(type.getIndex());
            }
            if (type.getContainingType() == null && type.getFile() == RAFT_FILE) {
                return RAFT_PLANS.get(type.getIndex());
            }
            return plan(type);
        }

        private static List<List<FieldPlan>> plansOf(FileDescriptor file) {
            List<List<FieldPlan>> plans = new ArrayList<>();
            for (Descriptor type : file.getMessageTypes()) {
                plans.add(plan(type));
            }
            return plans;
        }

        private static List<FieldPlan> plan(Descriptor type) {
            List<FieldPlan> plans = new ArrayList<>();
            for (FieldDescriptor field : type.getFields()) {
                plans.add(new FieldPlan(field, field.getName(), field.getJsonName(), field.isRepeated(),
                        field.hasPresence()));
            }
            return plans;
        }
    }

    private static void appendValue(FieldDescriptor field, Object value, StringBuilder out, boolean json) {
        switch (field.getJavaType()) {
            case STRING -> appendString((String) value, out);
            case ENUM -> {
                String name = ((EnumValueDescriptor) value).getName();
                if (json) {
                    appendString(name, out);
                } else {
                    out.append(name);
                }
            }
            case MESSAGE -> {
                if (value instanceof Uuid id) {
                    appendString(TopicIds.toBase64(id), out);
                } else if (json) {
                    appendJson((Message) value, out);
                } else {
                    out.append('{');
                    appendText((Message) value, out);
                    out.append('}');
                }
            }
            case BYTE_STRING -> appendString("<" + ((com.google.protobuf.ByteString) value).size() + " bytes>", out);
            default -> out.append(value);
        }
    }

    /** A JSON string literal (also the text form's quoting). */
    public static void appendString(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
