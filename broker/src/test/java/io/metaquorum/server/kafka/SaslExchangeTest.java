package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.security.sasl.SaslClient;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramSaslClient;
import org.junit.jupiter.api.Test;

/**
 * The SASL state machine of one connection, driven frame by frame without a socket: one rule
 * per test, each asserting the step the connection takes and the state it is left in.
 */
class SaslExchangeTest {
    private final SaslExchange exchange = new SaslExchange(new SaslListenerSettings(
            List.of("PLAIN", "SCRAM-SHA-256"), Map.of("alice", "alice-secret"), 4096, 100),
            SaslTestListener::scramCredential, "127.0.0.1");

    @Test
    void apiVersionsPassesAnyNumberOfTimesBeforeTheHandshake() {
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(SaslExchange.Pass.class, exchange.receive(frame(ApiKeys.API_VERSIONS, (short) 3,
                    new ApiVersionsRequest.Builder().build((short) 3))));
        }
        assertFalse(exchange.complete() || exchange.failed());
    }

    @Test
    void anyOtherRequestIsRefusedBeforeItsBodyIsReadAndFailsTheExchange() {
        ByteBuffer metadata = frame(ApiKeys.METADATA, (short) 12, new MetadataRequest.Builder(new MetadataRequestData())
                .build((short) 12));
        SaslExchange.Refuse refuse = assertInstanceOf(SaslExchange.Refuse.class, exchange.receive(metadata));
        assertEquals("Unexpected Kafka request of type METADATA during SASL handshake", refuse.reason());
        assertTrue(exchange.failed());
    }

    @Test
    void plainCompletesWithTheUserAsAuthorizationId() {
        handshake("PLAIN");
        SaslExchange.Answer answer = authenticate(("\0alice\0alice-secret").getBytes(StandardCharsets.UTF_8));
        assertFalse(answer.fails());
        assertEquals(0, ((SaslAuthenticateResponse) answer.response()).sessionLifetimeMs());
        assertTrue(exchange.complete());
        assertEquals("alice", exchange.authorizationId());
    }

    @Test
    void scramRunsBothRoundsAgainstTheCredentialStore() throws Exception {
        handshake("SCRAM-SHA-256");
        SaslClient client = new ScramSaslClient(ScramMechanism.SCRAM_SHA_256, callbacks -> {
            for (Callback callback : callbacks) {
                if (callback instanceof NameCallback name) {
                    name.setName("alice");
                } else if (callback instanceof PasswordCallback password) {
                    password.setPassword("alice-secret".toCharArray());
                }
            }
        });
        byte[] first = authenticateOk(client.evaluateChallenge(new byte[0]));
        byte[] last = authenticateOk(client.evaluateChallenge(first));
        client.evaluateChallenge(last);
        assertTrue(client.isComplete(), "the client accepted the server's signature");
        assertEquals("alice", exchange.authorizationId());
    }

    @Test
    void anUnknownScramUserGetsTheGeneralMessage() {
        handshake("SCRAM-SHA-256");
        SaslExchange.Answer answer = authenticate("n,,n=mallory,r=abcdefgh".getBytes(StandardCharsets.UTF_8));
        assertTrue(answer.fails());
        SaslAuthenticateResponse response = (SaslAuthenticateResponse) answer.response();
        assertEquals(Errors.SASL_AUTHENTICATION_FAILED, response.error());
        assertEquals("Authentication failed during authentication due to invalid credentials with SASL mechanism"
                + " SCRAM-SHA-256", response.errorMessage());
        assertTrue(exchange.failed());
    }

    @Test
    void aHandshakeForAMechanismNotEnabledFails() {
        SaslExchange.Answer answer = assertInstanceOf(SaslExchange.Answer.class, exchange.receive(frame(
                ApiKeys.SASL_HANDSHAKE, (short) 1, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                        .setMechanism("SCRAM-SHA-512")).build((short) 1))));
        assertTrue(answer.fails());
        assertTrue(exchange.failed());
    }

    private void handshake(String mechanism) {
        SaslExchange.Answer answer = assertInstanceOf(SaslExchange.Answer.class, exchange.receive(frame(
                ApiKeys.SASL_HANDSHAKE, (short) 1, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                        .setMechanism(mechanism)).build((short) 1))));
        assertFalse(answer.fails());
    }

    private byte[] authenticateOk(byte[] token) {
        SaslExchange.Answer answer = authenticate(token);
        assertFalse(answer.fails(), String.valueOf(answer.response()));
        return ((SaslAuthenticateResponse) answer.response()).saslAuthBytes();
    }

    private SaslExchange.Answer authenticate(byte[] token) {
        return assertInstanceOf(SaslExchange.Answer.class, exchange.receive(frame(ApiKeys.SASL_AUTHENTICATE,
                (short) 2, new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(token))
                        .build((short) 2))));
    }

    private static ByteBuffer frame(ApiKeys key, short version, AbstractRequest request) {
        return request.serializeWithHeader(WireClient.header(key, version, 1));
    }
}
