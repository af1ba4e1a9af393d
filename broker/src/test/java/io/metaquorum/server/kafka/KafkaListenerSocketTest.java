package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.Principal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Kafka listener on a real socket, spoken to with Kafka's own request and response classes:
 * ApiVersions at every version Kafka's client knows, and at one it does not; an API not
 * served; answers given out of order that still come back in request order; and what a
 * handler learns of its caller.
 */
class KafkaListenerSocketTest {
    private static final long WAIT_SECONDS = 10;

    /** DescribeCluster requests the test handler holds, with where their answer goes. */
    private final BlockingQueue<Held> held = new ArrayBlockingQueue<>(64);
    private KafkaListenerServer server;

    private record Held(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
    }

    @BeforeEach
    void start() {
        KafkaApiHandler holding = (call, request, reply) -> held.add(new Held(call, request, reply));
        server = TestListeners.plaintext(KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER, holding)));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private WireClient connect() throws Exception {
        return WireClient.connect(server.boundAddress().port());
    }

    @Test
    void apiVersionsAtEveryVersionAdvertisesWhatIsRegistered() throws Exception {
        assertTrue(server.boundAddress().port() != 0, "port 0 binds a free port and reports it");
        try (WireClient client = connect()) {
            for (short version = ApiKeys.API_VERSIONS.oldestVersion(); version <= ApiKeys.API_VERSIONS.latestVersion();
                 version++) {
                RequestHeader header = WireClient.header(ApiKeys.API_VERSIONS, version, 100 + version);
                client.send(header, new ApiVersionsRequest.Builder().build(version));
                ApiVersionsResponse response = (ApiVersionsResponse) client.receive(header);
                assertEquals(Errors.NONE.code(), response.data().errorCode(), "v" + version);
                assertEquals(List.of(ApiKeys.API_VERSIONS.id, ApiKeys.DESCRIBE_CLUSTER.id),
                        response.data().apiKeys().stream().map(ApiVersion::apiKey).toList(), "v" + version);
                ApiVersion describeCluster = response.apiVersion(ApiKeys.DESCRIBE_CLUSTER.id);
                assertEquals(ApiKeys.DESCRIBE_CLUSTER.latestVersion(), describeCluster.maxVersion());
            }
        }
    }

    @Test
    void apiVersionsNewerThanKnownIsAnsweredAtVersionZeroWithOurRange() throws Exception {
        try (WireClient client = connect()) {
            short newer = 99;
            RequestHeader header = WireClient.header(ApiKeys.API_VERSIONS, newer, 7);
            // The body of a version we cannot know: a client writes its own newest; any bytes do.
            client.sendFrame(RequestUtils.serialize(header.data(), header.headerVersion(),
                    new ApiVersionsRequestData().setClientSoftwareName("future").setClientSoftwareVersion("99"),
                    ApiKeys.API_VERSIONS.latestVersion()));
            WireClient.Response response = client.receive(ApiKeys.API_VERSIONS, (short) 0);
            assertEquals(7, response.correlationId());
            ApiVersionsResponse body = (ApiVersionsResponse) response.body();
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), body.data().errorCode());
            ApiVersion ours = body.apiVersion(ApiKeys.API_VERSIONS.id);
            assertEquals(ApiKeys.API_VERSIONS.oldestVersion(), ours.minVersion());
            assertEquals(ApiKeys.API_VERSIONS.latestVersion(), ours.maxVersion());
            RequestHeader retry = WireClient.header(ApiKeys.API_VERSIONS, ours.maxVersion(), 8);
            client.send(retry, new ApiVersionsRequest.Builder().build(ours.maxVersion()));
            assertEquals(Errors.NONE.code(), ((ApiVersionsResponse) client.receive(retry)).data().errorCode(),
                    "the connection stays usable at the version offered");
        }
    }

    @Test
    void anApiNotRegisteredIsAnsweredUnsupportedVersionInItsOwnShape() throws Exception {
        try (WireClient client = connect()) {
            short version = ApiKeys.CREATE_TOPICS.latestVersion();
            RequestHeader header = WireClient.header(ApiKeys.CREATE_TOPICS, version, 11);
            CreateTopicsRequestData.CreatableTopicCollection topics = new CreateTopicsRequestData.CreatableTopicCollection();
            topics.add(new CreateTopicsRequestData.CreatableTopic().setName("t").setNumPartitions(1)
                    .setReplicationFactor((short) 1));
            client.send(header, new CreateTopicsRequest.Builder(new CreateTopicsRequestData().setTopics(topics))
                    .build(version));
            CreateTopicsResponse response = (CreateTopicsResponse) client.receive(header);
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), response.data().topics().find("t").errorCode());
            assertTrue(held.isEmpty(), "no handler ran");
            RequestHeader apiVersions = WireClient.header(ApiKeys.API_VERSIONS, (short) 3, 12);
            client.send(apiVersions, new ApiVersionsRequest.Builder().build((short) 3));
            assertNotNull(client.receive(apiVersions), "the connection stays open");
        }
    }

    @Test
    void answersGivenOutOfOrderOnOtherThreadsGoOutInRequestOrder() throws Exception {
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        try (WireClient client = connect()) {
            List<RequestHeader> headers = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                RequestHeader header = WireClient.header(ApiKeys.DESCRIBE_CLUSTER, version, i);
                headers.add(header);
                client.send(header, new DescribeClusterRequest.Builder(new DescribeClusterRequestData())
                        .build(version));
            }
            List<Held> requests = new ArrayList<>();
            for (int i = 0; i < headers.size(); i++) {
                Held request = held.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                assertNotNull(request, "request " + i + " reached the handler");
                requests.add(request);
            }
            for (int i : List.of(3, 1, 2, 0)) {
                Held request = requests.get(i);
                Thread replier = new Thread(() -> request.reply().accept(new DescribeClusterResponse(
                        new DescribeClusterResponseData().setClusterId("answer-" + i))));
                replier.start();
                replier.join();
            }
            for (int i = 0; i < headers.size(); i++) {
                DescribeClusterResponse response = (DescribeClusterResponse) client.receive(headers.get(i));
                assertEquals("answer-" + i, response.data().clusterId());
            }
        }
    }

    @Test
    void theHandlerSeesTheAnonymousPrincipalTheClientHostAndTheListener() throws Exception {
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        try (WireClient client = connect()) {
            client.send(WireClient.header(ApiKeys.DESCRIBE_CLUSTER, version, 1),
                    new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build(version));
            Held request = held.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(request);
            assertEquals(Principal.ANONYMOUS, request.call().origin().caller().principal());
            assertEquals("127.0.0.1", request.call().origin().caller().host());
            assertEquals("EXTERNAL", request.call().listenerName());
            assertEquals(version, request.call().apiVersion());
            request.reply().accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        }
    }

    @Test
    void aHalfWrittenFrameWaitsUntilTheIdleTimeoutClosesIt() throws Exception {
        try (KafkaListenerServer idling = TestListeners.start(KafkaApis.withApiVersions(Map.of()), Optional.empty(),
                "DEFAULT", 200); WireClient client = WireClient.connect(idling.boundAddress().port())) {
            client.sendRaw(ByteBuffer.allocate(6).putInt(100).putShort((short) 18).array());
            assertTrue(client.closedByServer(), "closed once idle, well within the read bound");
        }
    }

    @Test
    void aFrameOverTheLimitClosesOnlyItsConnection() throws Exception {
        try (WireClient bad = connect(); WireClient good = connect()) {
            bad.sendRaw(ByteBuffer.allocate(Integer.BYTES).putInt(TestListeners.REQUEST_BYTES_MAX + 1).array());
            assertTrue(bad.closedByServer());
            RequestHeader header = WireClient.header(ApiKeys.API_VERSIONS, (short) 0, 1);
            good.send(header, new ApiVersionsRequest.Builder().build((short) 0));
            assertEquals(Errors.NONE.code(), ((ApiVersionsResponse) good.receive(header)).data().errorCode());
        }
    }
}
