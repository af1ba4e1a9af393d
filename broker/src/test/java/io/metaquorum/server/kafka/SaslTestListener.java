package io.metaquorum.server.kafka;

import io.metaquorum.net.HostPort;
import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.grpc.RefusalLog;
import io.netty.handler.ssl.SslContext;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;

/**
 * A SASL listener for tests, on 127.0.0.1 port 0, serving Metadata (one broker, this listener,
 * and one topic {@value #TOPIC}) and DescribeCluster; every call is recorded with its caller.
 * PLAIN users: alice and bob; SCRAM credentials: alice for both mechanisms, carol for
 * SCRAM-SHA-512 only. Each password is the user's name with {@code -secret}.
 */
final class SaslTestListener implements AutoCloseable {
    static final String CLUSTER_ID = "sasl-test-cluster";
    static final String TOPIC = "orders";
    static final int NODE_ID = 9;
    static final int RECEIVE_BYTES_MAX = 4096;
    static final Map<String, String> PLAIN_USERS = Map.of("alice", "alice-secret", "bob", "bob-secret");

    final BlockingQueue<KafkaCall> calls = new ArrayBlockingQueue<>(1024);
    final AtomicInteger handled = new AtomicInteger();
    final KafkaListenerServer server;

    SaslTestListener(List<String> mechanisms, Optional<SslContext> tls) {
        AtomicInteger port = new AtomicInteger();
        KafkaApiHandler metadata = (call, request, reply) -> {
            record(call);
            reply.accept(new MetadataResponse(metadata(port.get()), call.apiVersion()));
        };
        KafkaApiHandler cluster = (call, request, reply) -> {
            record(call);
            reply.accept(new DescribeClusterResponse(new DescribeClusterResponseData().setClusterId(CLUSTER_ID)
                    .setControllerId(NODE_ID).setBrokers(new DescribeClusterResponseData.DescribeClusterBrokerCollection(
                            List.of(new DescribeClusterResponseData.DescribeClusterBroker().setBrokerId(NODE_ID)
                                    .setHost("127.0.0.1").setPort(port.get())).iterator()))));
        };
        KafkaApis apis = KafkaApis.withApiVersions(Map.of(ApiKeys.METADATA, metadata, ApiKeys.DESCRIBE_CLUSTER, cluster));
        SaslListenerSettings sasl = new SaslListenerSettings(mechanisms, PLAIN_USERS, RECEIVE_BYTES_MAX, 100);
        server = KafkaListenerServer.start(new KafkaListenerSettings("[node 9] ", "SASL_LISTENER",
                new HostPort("127.0.0.1", 0), tls, SslPrincipalMapping.parse("DEFAULT"),
                new RefusalLog("[node 9] ", System::nanoTime), TestListeners.REQUEST_BYTES_MAX,
                TestListeners.IDLE_MS_MAX, Optional.of(sasl)), apis, SaslTestListener::scramCredential);
        port.set(server.boundAddress().port());
    }

    int port() {
        return server.boundAddress().port();
    }

    private void record(KafkaCall call) {
        handled.incrementAndGet();
        calls.add(call);
    }

    static Optional<ScramCredential> scramCredential(String mechanism, String user) {
        boolean known = user.equals("alice") || user.equals("carol") && mechanism.equals("SCRAM-SHA-512");
        if (!known) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ScramFormatter(ScramMechanism.forMechanismName(mechanism))
                    .generateCredential(user + "-secret", 4096));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static MetadataResponseData metadata(int port) {
        MetadataResponseData data = new MetadataResponseData().setClusterId(CLUSTER_ID).setControllerId(NODE_ID);
        data.brokers().add(new MetadataResponseData.MetadataResponseBroker().setNodeId(NODE_ID).setHost("127.0.0.1")
                .setPort(port));
        MetadataResponseData.MetadataResponseTopic topic = new MetadataResponseData.MetadataResponseTopic()
                .setName(TOPIC).setTopicId(Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ")).setErrorCode(Errors.NONE.code());
        topic.partitions().add(new MetadataResponseData.MetadataResponsePartition().setPartitionIndex(0)
                .setLeaderId(NODE_ID).setReplicaNodes(List.of(NODE_ID)).setIsrNodes(List.of(NODE_ID)));
        data.topics().add(topic);
        return data;
    }

    @Override
    public void close() {
        server.close();
    }
}
