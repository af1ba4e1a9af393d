package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * Bytes no client should send, over real sockets to one listener: random frames, and valid
 * requests with bytes flipped, cut short, sizes rewritten (huge ones among them) or bytes
 * added. Whatever the bytes, each connection gets exactly the answers the requests in it
 * call for, well formed and in order, and is otherwise closed; the handler runs once per
 * request that parses and never for one that does not; and a fresh connection afterwards is
 * served as before. What "parses" means comes from Kafka's own classes (the oracle below
 * walks the stream as the framing rules say), not from the listener's code.
 */
class KafkaListenerFuzzPropertyTest {
    private static final AtomicInteger HANDLED = new AtomicInteger();
    private static KafkaListenerServer server;

    @BeforeContainer
    static void start() {
        KafkaApiHandler answering = (call, request, reply) -> {
            HANDLED.incrementAndGet();
            reply.accept(new DescribeClusterResponse(new DescribeClusterResponseData().setClusterId("fuzz")));
        };
        server = TestListeners.plaintext(KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER, answering)));
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    /** One answer the oracle expects: for which API, at which version, to which correlation id. */
    private record Expected(ApiKeys key, short version, int correlationId) {
    }

    @Property(tries = 150)
    void randomBytesAreAnsweredAsTheyParseOrClosed(@ForAll("randomStreams") byte[] bytes) throws IOException {
        check(bytes);
    }

    @Property(tries = 250)
    void mutatedRequestsAreAnsweredAsTheyParseOrClosed(@ForAll("mutatedStreams") byte[] bytes) throws IOException {
        check(bytes);
    }

    private void check(byte[] bytes) throws IOException {
        List<Expected> expected = new ArrayList<>();
        int handlerRuns = oracle(bytes, expected);
        int handledBefore = HANDLED.get();
        List<ByteBuffer> answers = new ArrayList<>();
        try (WireClient client = WireClient.connect(server.boundAddress().port())) {
            client.sendRaw(bytes);
            client.shutdownOutput();
            for (Optional<ByteBuffer> frame = client.readFrame(); frame.isPresent(); frame = client.readFrame()) {
                answers.add(frame.get());
            }
        }
        assertEquals(expected.size(), answers.size(), "answers for " + expected);
        for (int i = 0; i < answers.size(); i++) {
            wellFormed(expected.get(i), answers.get(i));
        }
        assertEquals(handlerRuns, HANDLED.get() - handledBefore, "handler runs");
        freshConnectionIsServed();
    }

    private static void wellFormed(Expected expected, ByteBuffer answer) {
        ResponseHeader header = ResponseHeader.parse(answer, expected.key().responseHeaderVersion(expected.version()));
        assertEquals(expected.correlationId(), header.correlationId());
        AbstractResponse body = AbstractResponse.parseResponse(expected.key(), new ByteBufferAccessor(answer),
                expected.version());
        assertTrue(!answer.hasRemaining(), "nothing after the body");
        if (body instanceof DescribeClusterResponse cluster) {
            assertEquals("fuzz", cluster.data().clusterId());
        }
    }

    private static void freshConnectionIsServed() throws IOException {
        try (WireClient client = WireClient.connect(server.boundAddress().port())) {
            RequestHeader header = WireClient.header(ApiKeys.API_VERSIONS, (short) 3, 1);
            client.send(header, new ApiVersionsRequest.Builder().build((short) 3));
            assertEquals(Errors.NONE.code(), ((ApiVersionsResponse) client.receive(header)).data().errorCode());
        }
    }

    /**
     * Walks {@code bytes} as the listener must: frame after frame while each size is in range
     * and whole, each payload read with Kafka's classes. Adds the answers due to
     * {@code expected} and returns how many reach the handler (DescribeCluster).
     */
    private static int oracle(byte[] bytes, List<Expected> expected) {
        ByteBuffer stream = ByteBuffer.wrap(bytes);
        int handlerRuns = 0;
        while (stream.remaining() >= 4) {
            int size = stream.getInt();
            if (size < 0 || size > TestListeners.REQUEST_BYTES_MAX || size > stream.remaining()) {
                return handlerRuns;
            }
            ByteBuffer payload = ByteBuffer.wrap(Arrays.copyOfRange(bytes, stream.position(), stream.position() + size));
            stream.position(stream.position() + size);
            Optional<Expected> answer = oracleFrame(payload);
            if (answer.isEmpty()) {
                return handlerRuns;
            }
            expected.add(answer.get());
            if (answer.get().key() == ApiKeys.DESCRIBE_CLUSTER) {
                handlerRuns++;
            }
        }
        return handlerRuns;
    }

    private static Optional<Expected> oracleFrame(ByteBuffer payload) {
        try {
            RequestHeader header = RequestHeader.parse(payload);
            ApiKeys key = header.apiKey();
            short version = header.apiVersion();
            if (!key.isVersionSupported(version)) {
                boolean newerApiVersions = key == ApiKeys.API_VERSIONS && version > key.latestVersion();
                return newerApiVersions ? Optional.of(new Expected(key, (short) 0, header.correlationId()))
                        : Optional.empty();
            }
            AbstractRequest.parseRequest(key, version, new ByteBufferAccessor(payload));
            if (payload.hasRemaining()) {
                return Optional.empty();
            }
            return Optional.of(new Expected(key, version, header.correlationId()));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Provide
    Arbitrary<byte[]> randomStreams() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(96);
    }

    @Provide
    Arbitrary<byte[]> mutatedStreams() {
        Arbitrary<byte[]> valid = Combinators.combine(Arbitraries.of(ApiKeys.API_VERSIONS, ApiKeys.DESCRIBE_CLUSTER),
                Arbitraries.integers().between(0, 99), Arbitraries.integers().between(1, 3))
                .as(KafkaListenerFuzzPropertyTest::validStream);
        return Combinators.combine(valid, Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 1 << 16),
                Arbitraries.integers(), Arbitraries.bytes().array(byte[].class).ofMaxSize(16))
                .as(FrameMutations::mutate);
    }

    /** {@code count} requests of {@code key}, each at a version drawn from {@code seed}, framed back to back. */
    private static byte[] validStream(ApiKeys key, int seed, int count) {
        ByteBuffer stream = ByteBuffer.allocate(4096);
        for (int i = 0; i < count; i++) {
            short version = (short) (key.oldestVersion() + (seed + i) % (key.latestVersion() - key.oldestVersion() + 1));
            AbstractRequest request = key == ApiKeys.API_VERSIONS ? new ApiVersionsRequest.Builder().build(version)
                    : new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build(version);
            ByteBuffer payload = request.serializeWithHeader(WireClient.header(key, version, seed * 10 + i));
            stream.putInt(payload.remaining()).put(payload);
        }
        return Arrays.copyOf(stream.array(), stream.position());
    }
}
