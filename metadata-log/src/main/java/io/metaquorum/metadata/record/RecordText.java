package io.metaquorum.metadata.record;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.List;

/**
 * Record bodies as the tools print them: a one-line text form ({@code name: "demo" topic_id:
 * "x9VhI4eNQmqgq5o4fXoVtA" replicas: [4, 5, 6]}) and JSON ({@code {"name": "demo", "topicId":
 * "x9VhI4eNQmqgq5o4fXoVtA"}}, protobuf's JSON field names). Ids ({@link Uuid} fields: topic,
 * incarnation, ACL) print in Kafka's 22-character form (PRODUCT.md), 64-bit numbers as
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
        boolean first = true;
        for (FieldDescriptor field : body.getDescriptorForType().getFields()) {
            if (!printed(body, field)) {
                continue;
            }
            if (!first) {
                out.append(' ');
            }
            first = false;
            out.append(field.getName()).append(": ");
            if (field.isRepeated()) {
                out.append('[');
                List<?> values = (List<?>) body.getField(field);
                for (int i = 0; i < values.size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    appendValue(field, values.get(i), out, false);
                }
                out.append(']');
            } else {
                appendValue(field, body.getField(field), out, false);
            }
        }
    }

    public static void appendJson(Message body, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (FieldDescriptor field : body.getDescriptorForType().getFields()) {
            if (!printed(body, field)) {
                continue;
            }
            out.append(first ? "" : ", ");
            first = false;
            out.append('"').append(field.getJsonName()).append("\": ");
            if (field.isRepeated()) {
                out.append('[');
                List<?> values = (List<?>) body.getField(field);
                for (int i = 0; i < values.size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    appendValue(field, values.get(i), out, true);
                }
                out.append(']');
            } else {
                appendValue(field, body.getField(field), out, true);
            }
        }
        out.append('}');
    }

    private static boolean printed(Message body, FieldDescriptor field) {
        return field.isRepeated() || !field.hasPresence() || body.hasField(field);
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
