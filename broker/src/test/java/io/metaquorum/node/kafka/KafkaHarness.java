package io.metaquorum.node.kafka;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.server.admin.AdminRequestsNode;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.CreateTopicsResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The topic APIs of {@link TopicApis}, and DescribeConfigs, over a real {@link io.metaquorum.node.admin.AdminRequests}
 * ({@link AdminRequestsNode}), called as the listener would call them: the request is written
 * at the version asked and parsed back as Kafka's broker parses it, and the response is written
 * at that version and parsed back as Kafka's client parses it, so every test also proves that
 * nothing was set that the version cannot carry (Kafka refuses to write that).
 */
final class KafkaHarness implements AutoCloseable {
    static final String LISTENER = "EXTERNAL";
    static final String GRPC = "GRPC";

    final AdminRequestsNode node;
    private final Map<ApiKeys, KafkaApiHandler> handlers = new EnumMap<>(ApiKeys.class);

    KafkaHarness(NodeAccess access) {
        this(access, AdminRequestsNode.NODE_ID);
    }

    /** @param reportedNodeId the node id the handlers are registered with */
    KafkaHarness(NodeAccess access, int reportedNodeId) {
        this.node = AdminRequestsNode.active(access);
        TopicApis.register(handlers, node.admin(), reportedNodeId);
        handlers.put(ApiKeys.DESCRIBE_CONFIGS, new DescribeConfigsApi(node.admin()));
    }

    /** The gRPC listener first, then the Kafka one, as a node registers them. */
    static List<BrokerEndpoint> listeners(int id) {
        return List.of(endpoint(GRPC, 9000 + id), endpoint(LISTENER, 19090 + id));
    }

    static BrokerEndpoint endpoint(String name, int port) {
        return BrokerEndpoint.newBuilder().setName(name).setHost("broker" + port / 1000 + ".example").setPort(port)
                .build();
    }

    /** Brokers {@code ids}, unfenced, with both listeners. */
    KafkaHarness brokers(CallOrigin origin, int... ids) {
        for (int id : ids) {
            node.register(id, listeners(id), false, origin);
        }
        return this;
    }

    KafkaHarness brokers(int... ids) {
        return brokers(CallOrigin.CLIENT, ids);
    }

    <R extends AbstractResponse> R call(ApiMessage data, short version) {
        return call(data, version, CallOrigin.CLIENT);
    }

    <R extends AbstractResponse> R call(ApiMessage data, short version, CallOrigin origin) {
        return call(data, version, origin, LISTENER);
    }

    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R call(ApiMessage data, short version, CallOrigin origin, String listener) {
        ApiKeys key = ApiKeys.forId(data.apiKey());
        ByteBufferAccessor written = MessageUtil.toByteBufferAccessor(data, version);
        AbstractRequest request = AbstractRequest.parseRequest(key, version, reread(written)).request;
        CompletableFuture<AbstractResponse> answer = new CompletableFuture<>();
        handlers.get(key).handle(new KafkaCall(origin, listener, version), request, answer::complete);
        AbstractResponse response;
        try {
            response = answer.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return (R) roundTrip(key, response, version);
    }

    /** {@code response} as a client of {@code version} reads it off the wire. */
    static AbstractResponse roundTrip(ApiKeys key, AbstractResponse response, short version) {
        return AbstractResponse.parseResponse(key, reread(MessageUtil.toByteBufferAccessor(response.data(), version)),
                version);
    }

    private static ByteBufferAccessor reread(ByteBufferAccessor written) {
        ByteBuffer buffer = written.buffer().duplicate();
        if (buffer.position() > 0) {
            buffer.flip();
        }
        return new ByteBufferAccessor(buffer);
    }

    /** Creates topics through the adapter (latest version, waiting for the commit) and checks each succeeded. */
    CreateTopicsResponseData create(CreatableTopic... topics) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(5_000);
        for (CreatableTopic topic : topics) {
            data.topics().add(topic.duplicate());
        }
        int expected = node.image().topics().topicCount() + topics.length;
        CreateTopicsResponse response = call(data, ApiKeys.CREATE_TOPICS.latestVersion());
        response.data().topics().forEach(t -> assertEquals(Errors.NONE.code(), t.errorCode(), t.toString()));
        node.awaitImage(() -> node.image().topics().topicCount() >= expected);
        return response.data();
    }

    static CreatableTopic topic(String name, int partitions, int replicationFactor) {
        return new CreatableTopic().setName(name).setNumPartitions(partitions)
                .setReplicationFactor((short) replicationFactor);
    }

    @Override
    public void close() throws Exception {
        node.close();
    }
}
