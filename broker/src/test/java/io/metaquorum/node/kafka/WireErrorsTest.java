package io.metaquorum.node.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.metaquorum.protocol.ErrorCode;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** Our codes go out as Kafka's numbers, except the one Kafka has no number for. */
class WireErrorsTest {
    @Test
    void everyCodeKafkaDefinesGoesOutAsItIs() {
        for (ErrorCode code : ErrorCode.values()) {
            if (code == ErrorCode.UNRECOGNIZED || code == ErrorCode.AUTHORIZER_NOT_READY) {
                continue;
            }
            assertEquals(code.getNumber(), WireErrors.code(code), code.name());
            assertEquals(code.name(), Errors.forCode(WireErrors.code(code)).name(), "the same name in Kafka");
        }
    }

    @Test
    void authorizerNotReadyIsAnUnknownServerErrorThatSaysWhat() {
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), WireErrors.code(ErrorCode.AUTHORIZER_NOT_READY));
        assertEquals("AUTHORIZER_NOT_READY: not loaded", WireErrors.message(ErrorCode.AUTHORIZER_NOT_READY,
                "not loaded"));
    }

    @Test
    void aSuccessHasANullMessageAndAnErrorKeepsItsText() {
        assertNull(WireErrors.message(ErrorCode.NONE, ""));
        assertEquals("gone", WireErrors.message(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "gone"));
    }
}
