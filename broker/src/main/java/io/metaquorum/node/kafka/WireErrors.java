package io.metaquorum.node.kafka;

import io.metaquorum.protocol.ErrorCode;
import java.util.TreeSet;
import org.apache.kafka.common.protocol.Errors;

/**
 * Our error codes as Kafka's wire carries them. Our numbers are Kafka's, so a code Kafka
 * defines goes through as it is. AUTHORIZER_NOT_READY (10001) is ours alone: Kafka raises that
 * condition without a wire code, and its client would read 10001 as UNKNOWN_SERVER_ERROR
 * anyway, so it goes out as that, with our name kept at the front of the message.
 */
final class WireErrors {
    /** Every code Kafka's client knows (asked here rather than of Errors.forCode, which logs a warning). */
    private static final TreeSet<Integer> KAFKA_CODES = kafkaCodes();

    private WireErrors() {
    }

    /** The code Kafka's client reads for {@code code}. */
    static short code(ErrorCode code) {
        int number = code.getNumber();
        return KAFKA_CODES.contains(number) ? (short) number : Errors.UNKNOWN_SERVER_ERROR.code();
    }

    private static TreeSet<Integer> kafkaCodes() {
        TreeSet<Integer> codes = new TreeSet<>();
        for (Errors error : Errors.values()) {
            codes.add((int) error.code());
        }
        return codes;
    }

    /**
     * The message for a nullable error message field: null when there is no error and no text
     * (as Kafka answers a success), our text otherwise, led by our code's name when the wire
     * code had to change.
     */
    static String message(ErrorCode code, String message) {
        if (code == ErrorCode.NONE && (message == null || message.isEmpty())) {
            return null;
        }
        String text = message == null ? "" : message;
        if (code(code) != code.getNumber()) {
            return text.isEmpty() ? code.name() : code.name() + ": " + text;
        }
        return text.isEmpty() ? null : text;
    }
}
