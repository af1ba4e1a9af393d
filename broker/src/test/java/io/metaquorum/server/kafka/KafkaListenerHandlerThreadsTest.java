package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Handlers run on the listener's request-handler threads, not on the event loops that read
 * and write the connections: a handler that takes long (a describe of every topic of a big
 * cluster) holds up no other connection. With more connections than event loops, two of them
 * share a loop whichever way Netty spreads them, so the test needs no luck.
 */
class KafkaListenerHandlerThreadsTest {
    private static final long WAIT_SECONDS = 10;

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch blocked = new CountDownLatch(1);
    private KafkaListenerServer server;

    @BeforeEach
    void start() {
        KafkaApiHandler handler = (call, request, reply) -> {
            String clientId = ((DescribeClusterRequest) request).data().includeClusterAuthorizedOperations()
                    ? "slow" : "fast";
            if (clientId.equals("slow")) {
                blocked.countDown();
                try {
                    release.await(WAIT_SECONDS * 3, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            reply.accept(new DescribeClusterResponse(new DescribeClusterResponseData().setClusterId(clientId)));
        };
        server = TestListeners.plaintext(KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER, handler)));
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    private static void send(WireClient client, RequestHeader header, boolean slow) throws Exception {
        short version = header.apiVersion();
        client.send(header, new DescribeClusterRequest.Builder(new DescribeClusterRequestData()
                .setIncludeClusterAuthorizedOperations(slow)).build(version));
    }

    @Test
    void aHandlerThatBlocksHoldsUpNoOtherConnection() throws Exception {
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        List<WireClient> others = new ArrayList<>();
        try (WireClient slow = WireClient.connect(server.boundAddress().port())) {
            for (int i = 0; i < KafkaListenerServer.WORKER_THREADS; i++) {
                others.add(WireClient.connect(server.boundAddress().port()));
            }
            RequestHeader held = WireClient.header(ApiKeys.DESCRIBE_CLUSTER, version, 1);
            send(slow, held, true);
            assertTrue(blocked.await(WAIT_SECONDS, TimeUnit.SECONDS), "the slow handler runs");
            for (WireClient other : others) {
                RequestHeader header = WireClient.header(ApiKeys.DESCRIBE_CLUSTER, version, 2);
                send(other, header, false);
                assertEquals("fast", ((DescribeClusterResponse) other.receive(header)).data().clusterId(),
                        "answered while another connection's handler still blocks");
            }
            release.countDown();
            assertEquals("slow", ((DescribeClusterResponse) slow.receive(held)).data().clusterId());
        } finally {
            for (WireClient other : others) {
                other.close();
            }
        }
    }
}
