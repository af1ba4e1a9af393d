package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;

/**
 * Bytes no client should send to a SASL listener before authenticating, over real sockets:
 * random frames, and streams of the requests a client sends before and during
 * authentication (ApiVersions, SaslHandshake v0 and v1, SaslAuthenticate with a wrong
 * password, and Metadata and DescribeCluster, which must not be served) with bytes flipped,
 * cut short, sizes rewritten or bytes added. No password in them is right, so whatever the
 * bytes, no handler runs; and afterwards a fresh connection authenticates and is served, so
 * nothing crashed the listener.
 */
class KafkaListenerSaslFuzzPropertyTest {
    private static SaslTestListener listener;

    @BeforeContainer
    static void start() {
        listener = new SaslTestListener(List.of("PLAIN", "SCRAM-SHA-256"), Optional.empty());
    }

    @AfterContainer
    static void stop() {
        listener.close();
    }

    @Property(tries = 100)
    void randomBytesBeforeAuthenticationReachNoHandler(@ForAll("randomStreams") byte[] bytes) throws IOException {
        check(bytes);
    }

    @Property(tries = 200)
    void mutatedExchangesBeforeAuthenticationReachNoHandler(@ForAll("mutatedStreams") byte[] bytes)
            throws IOException {
        check(bytes);
    }

    private static void check(byte[] bytes) throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            client.sendRaw(bytes);
            client.shutdownOutput();
            int frames = 0;
            while (client.readFrame().isPresent()) {
                frames++;
            }
            assertTrue(frames <= 5, "at most one answer per frame sent: " + frames);
        }
        assertEquals(0, listener.handled.get(), "handler runs before authentication");
        freshConnectionAuthenticatesAndIsServed();
    }

    private static void freshConnectionAuthenticatesAndIsServed() throws IOException {
        try (WireClient client = WireClient.connect(listener.port())) {
            RequestHeader handshake = WireClient.header(ApiKeys.SASL_HANDSHAKE, (short) 1, 1);
            client.send(handshake, new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                    .setMechanism("PLAIN")).build((short) 1));
            assertEquals(Errors.NONE, ((SaslHandshakeResponse) client.receive(handshake)).error());
            RequestHeader authenticate = WireClient.header(ApiKeys.SASL_AUTHENTICATE, (short) 2, 2);
            client.send(authenticate, new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                    .setAuthBytes(KafkaListenerSaslWireTest.plainToken("alice", "alice-secret"))).build((short) 2));
            assertEquals(Errors.NONE, ((SaslAuthenticateResponse) client.receive(authenticate)).error());
            RequestHeader metadata = WireClient.header(ApiKeys.METADATA, (short) 12, 3);
            client.send(metadata, new MetadataRequest.Builder(new MetadataRequestData()).build((short) 12));
            assertEquals(SaslTestListener.CLUSTER_ID, ((MetadataResponse) client.receive(metadata)).data().clusterId());
        }
        // The served Metadata is the one handler run; take it back so the next try starts from zero.
        listener.calls.clear();
        listener.handled.set(0);
    }

    @Provide
    Arbitrary<byte[]> randomStreams() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(96);
    }

    @Provide
    Arbitrary<byte[]> mutatedStreams() {
        Arbitrary<byte[]> valid = Arbitraries.integers().between(0, 5).list().ofMinSize(1).ofMaxSize(4)
                .map(KafkaListenerSaslFuzzPropertyTest::stream);
        return Combinators.combine(valid, Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 1 << 16),
                Arbitraries.integers(), Arbitraries.bytes().array(byte[].class).ofMaxSize(16))
                .as(FrameMutations::mutate);
    }

    /** The requests {@code kinds} name, framed back to back; every password in them is wrong. */
    private static byte[] stream(List<Integer> kinds) {
        ByteBuffer stream = ByteBuffer.allocate(4096);
        int correlationId = 0;
        for (int kind : kinds) {
            correlationId++;
            ByteBuffer payload = switch (kind) {
                case 0 -> request(ApiKeys.API_VERSIONS, (short) 3, correlationId, new ApiVersionsRequest.Builder()
                        .build((short) 3));
                case 1, 2 -> request(ApiKeys.SASL_HANDSHAKE, (short) (kind - 1), correlationId,
                        new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN"))
                                .build((short) (kind - 1)));
                case 3 -> request(ApiKeys.SASL_AUTHENTICATE, (short) 2, correlationId,
                        new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(
                                KafkaListenerSaslWireTest.plainToken("alice", "wrong-" + correlationId)))
                                .build((short) 2));
                case 4 -> request(ApiKeys.METADATA, (short) 12, correlationId,
                        new MetadataRequest.Builder(new MetadataRequestData()).build((short) 12));
                default -> request(ApiKeys.DESCRIBE_CLUSTER, (short) 1, correlationId,
                        new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build((short) 1));
            };
            stream.putInt(payload.remaining()).put(payload);
        }
        // A raw PLAIN token too, with a wrong password: what follows a v0 handshake.
        byte[] raw = ("\0alice\0wrong").getBytes(StandardCharsets.UTF_8);
        stream.putInt(raw.length).put(raw);
        return Arrays.copyOf(stream.array(), stream.position());
    }

    private static ByteBuffer request(ApiKeys key, short version, int correlationId, AbstractRequest request) {
        return request.serializeWithHeader(WireClient.header(key, version, correlationId));
    }
}
