package io.metaquorum.node.kafka;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import org.apache.kafka.common.Uuid;

/**
 * The few values that differ in form between our protobuf answers and Kafka's messages: error
 * codes (the same numbers), messages (Kafka sends none for success, and null rather than empty
 * so that a client falls back on the error's own text), topic ids, racks (null when none).
 */
final class WireValues {
    private WireValues() {
    }

    static String message(ErrorCode code, String message) {
        return code == ErrorCode.NONE || message.isEmpty() ? null : message;
    }

    static Uuid uuid(io.metaquorum.protocol.Uuid id) {
        return new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static io.metaquorum.protocol.Uuid uuid(Uuid id) {
        return TopicIds.uuid(id.getMostSignificantBits(), id.getLeastSignificantBits());
    }

    static String rack(String rack) {
        return rack.isEmpty() ? null : rack;
    }

    /** An empty name (an entry asked or answered by id alone) as Kafka's null. */
    static String name(String name) {
        return name.isEmpty() ? null : name;
    }
}
