package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.security.Principal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SASL exchange on the wire, byte by byte as a client sends it: what is served before
 * authentication (ApiVersions, SaslHandshake, SaslAuthenticate, nothing else), the answers to
 * a failed exchange and the close that follows them, the raw tokens of a v0 handshake, the
 * smaller frame limit before authentication, and SASL requests after it.
 */
class KafkaListenerSaslWireTest {
    private static final short HANDSHAKE_V1 = 1;
    private static final short AUTHENTICATE_V2 = 2;
    private SaslTestListener listener;

    @BeforeEach
    void start() {
        listener = new SaslTestListener(List.of("PLAIN", "SCRAM-SHA-512"), Optional.empty());
    }

    @AfterEach
    void stop() {
        listener.close();
    }

    @Test
    void aMetadataRequestBeforeAuthenticationClosesTheConnectionAndNoHandlerRuns() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            client.send(WireClient.header(ApiKeys.METADATA, (short) 12, 1),
                    new MetadataRequest.Builder(new MetadataRequestData()).build((short) 12));
            assertTrue(client.readFrame().isEmpty(), "closed instead of answered");
        }
        try (WireClient client = WireClient.connect(listener.port())) {
            handshake(client, "PLAIN");
            client.send(WireClient.header(ApiKeys.METADATA, (short) 12, 3),
                    new MetadataRequest.Builder(new MetadataRequestData()).build((short) 12));
            assertTrue(client.readFrame().isEmpty(), "closed during authentication too");
        }
        assertEquals(0, listener.handled.get());
    }

    @Test
    void apiVersionsBeforeAuthenticationAdvertisesTheSaslApisOnlyOnASaslListener() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            ApiVersionsResponse versions = apiVersions(client);
            assertNotNull(versions.data().apiKeys().find(ApiKeys.SASL_HANDSHAKE.id));
            assertNotNull(versions.data().apiKeys().find(ApiKeys.SASL_AUTHENTICATE.id));
            assertNotNull(versions.data().apiKeys().find(ApiKeys.METADATA.id));
        }
        try (KafkaListenerServer plain = TestListeners.plaintext(KafkaApis.withApiVersions(Map.of()));
             WireClient client = WireClient.connect(plain.boundAddress().port())) {
            ApiVersionsResponse versions = apiVersions(client);
            assertNull(versions.data().apiKeys().find(ApiKeys.SASL_HANDSHAKE.id));
            assertNull(versions.data().apiKeys().find(ApiKeys.SASL_AUTHENTICATE.id));
        }
    }

    @Test
    void aFailedAuthenticationIsAnsweredThenTheConnectionCloses() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            apiVersions(client);
            handshake(client, "PLAIN");
            SaslAuthenticateResponse failed = authenticate(client, plainToken("alice", "wrong"));
            assertEquals(Errors.SASL_AUTHENTICATION_FAILED, failed.error());
            assertEquals("Authentication failed: Invalid username or password", failed.errorMessage());
            assertTrue(client.closedByServer(), "closed after the answer");
        }
        assertEquals(0, listener.handled.get());
    }

    @Test
    void aMechanismNotEnabledIsAnsweredWithTheEnabledOnesThenTheConnectionCloses() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            RequestHeader header = WireClient.header(ApiKeys.SASL_HANDSHAKE, HANDSHAKE_V1, 2);
            client.send(header, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("GSSAPI")).build(HANDSHAKE_V1));
            SaslHandshakeResponse answer = (SaslHandshakeResponse) client.receive(header);
            assertEquals(Errors.UNSUPPORTED_SASL_MECHANISM, answer.error());
            assertEquals(List.of("PLAIN", "SCRAM-SHA-512"), answer.enabledMechanisms());
            assertTrue(client.closedByServer(), "closed after the answer");
        }
    }

    @Test
    void afterAV0HandshakeTheTokensComeRawAndTheUserIsTheCaller() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            RequestHeader header = WireClient.header(ApiKeys.SASL_HANDSHAKE, (short) 0, 2);
            client.send(header, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("PLAIN")).build((short) 0));
            assertEquals(Errors.NONE, ((SaslHandshakeResponse) client.receive(header)).error());
            client.sendFrame(ByteBuffer.wrap(plainToken("bob", "bob-secret")));
            assertEquals(0, client.readFrame().orElseThrow().remaining(), "PLAIN's empty answer, raw");
            assertEquals(Errors.NONE, metadata(client, 4).errors().values().stream().findFirst().orElse(Errors.NONE));
        }
        assertEquals(Principal.user("bob"), listener.calls.peek().origin().caller().principal());
    }

    @Test
    void aWrongRawTokenClosesTheConnectionWithoutAnswer() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            RequestHeader header = WireClient.header(ApiKeys.SASL_HANDSHAKE, (short) 0, 2);
            client.send(header, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("PLAIN")).build((short) 0));
            client.receive(header);
            client.sendFrame(ByteBuffer.wrap(plainToken("bob", "wrong")));
            assertTrue(client.readFrame().isEmpty(), "closed, nothing written");
        }
    }

    @Test
    void beforeAuthenticationFramesAreLimitedToTheSaslReceiveSizeAfterItToTheRequestSize() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            client.sendRaw(ByteBuffer.allocate(4).putInt(SaslTestListener.RECEIVE_BYTES_MAX + 1).array());
            assertTrue(client.readFrame().isEmpty(), "closed before reading the frame");
        }
        try (WireClient client = WireClient.connect(listener.port())) {
            handshake(client, "PLAIN");
            assertEquals(Errors.NONE, authenticate(client, plainToken("alice", "alice-secret")).error());
            List<MetadataRequestData.MetadataRequestTopic> topics = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                topics.add(new MetadataRequestData.MetadataRequestTopic().setName("topic-with-a-long-name-" + i));
            }
            RequestHeader header = WireClient.header(ApiKeys.METADATA, (short) 12, 7);
            MetadataRequest big = new MetadataRequest.Builder(new MetadataRequestData().setTopics(topics))
                    .build((short) 12);
            assertTrue(big.serializeWithHeader(header).remaining() > SaslTestListener.RECEIVE_BYTES_MAX);
            client.send(header, big);
            assertTrue(client.receive(header) instanceof MetadataResponse, "served once authenticated");
        }
    }

    @Test
    void saslRequestsAfterAuthenticationAreIllegalSaslState() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            handshake(client, "PLAIN");
            SaslAuthenticateResponse done = authenticate(client, plainToken("alice", "alice-secret"));
            assertEquals(Errors.NONE, done.error());
            assertEquals(0, done.sessionLifetimeMs(), "no re-authentication");
            RequestHeader again = WireClient.header(ApiKeys.SASL_HANDSHAKE, HANDSHAKE_V1, 9);
            client.send(again, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("PLAIN")).build(HANDSHAKE_V1));
            assertEquals(Errors.ILLEGAL_SASL_STATE, ((SaslHandshakeResponse) client.receive(again)).error());
            assertEquals(SaslTestListener.CLUSTER_ID, metadata(client, 10).data().clusterId(), "still served");
        }
    }

    private static ApiVersionsResponse apiVersions(WireClient client) throws IOException {
        RequestHeader header = WireClient.header(ApiKeys.API_VERSIONS, (short) 3, 1);
        client.send(header, new ApiVersionsRequest.Builder().build((short) 3));
        ApiVersionsResponse versions = (ApiVersionsResponse) client.receive(header);
        assertEquals(Errors.NONE.code(), versions.data().errorCode());
        return versions;
    }

    private static void handshake(WireClient client, String mechanism) throws IOException {
        RequestHeader header = WireClient.header(ApiKeys.SASL_HANDSHAKE, HANDSHAKE_V1, 2);
        client.send(header, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                .setMechanism(mechanism)).build(HANDSHAKE_V1));
        assertEquals(Errors.NONE, ((SaslHandshakeResponse) client.receive(header)).error());
    }

    private static SaslAuthenticateResponse authenticate(WireClient client, byte[] token) throws IOException {
        RequestHeader header = WireClient.header(ApiKeys.SASL_AUTHENTICATE, AUTHENTICATE_V2, 3);
        client.send(header, new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                .setAuthBytes(token)).build(AUTHENTICATE_V2));
        return (SaslAuthenticateResponse) client.receive(header);
    }

    private static MetadataResponse metadata(WireClient client, int correlationId) throws IOException {
        RequestHeader header = WireClient.header(ApiKeys.METADATA, (short) 12, correlationId);
        client.send(header, new MetadataRequest.Builder(new MetadataRequestData()).build((short) 12));
        return (MetadataResponse) client.receive(header);
    }

    /** PLAIN's token: authorization id (empty), user name and password, each after a NUL. */
    static byte[] plainToken(String user, String password) {
        return ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
    }
}
