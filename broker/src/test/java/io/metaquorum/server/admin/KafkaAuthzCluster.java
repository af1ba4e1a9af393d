package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.net.HostPort;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.security.Caller;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.Principal;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.TestPki;
import io.metaquorum.security.grpc.IdentityInterceptor;
import io.metaquorum.security.grpc.RefusalLog;
import io.metaquorum.server.kafka.KafkaListenerServer;
import io.metaquorum.server.kafka.KafkaListenerSettings;
import io.metaquorum.server.kafka.KafkaTls;
import io.metaquorum.server.kafka.ScramCredentialStore;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Two nodes with the authorizer on, each with an SSL Kafka-protocol listener that requires a
 * client certificate: node 1, the active controller (listener EXTERNAL), and node 2, a broker
 * that shows node 1's committed image and forwards its writes to it over gRPC (listener
 * FORWARDING). Brokers 1 and 2 are registered at those listeners, each under its own listener
 * name, so a Kafka client of one node only ever talks to that node. The super users are the
 * nodes (plaintext gRPC between them: {@code User:ANONYMOUS}) and {@code User:CN=admin}; the
 * client is {@code User:CN=alice} by its certificate, with no ACL until a test grants one. Topics
 * orders and payments exist.
 */
final class KafkaAuthzCluster implements AutoCloseable {
    static final String ALICE = "User:CN=alice";
    static final Caller ADMIN = new Caller(Principal.user("CN=admin"), "127.0.0.1");
    static final List<String> TOPICS = List.of("orders", "payments");
    private static final String QUORUM_LISTENER = "CONTROLLER";

    final TestControllerGateway controller = new TestControllerGateway(1).becomeActive();
    private final TestControllerGateway broker = new TestControllerGateway(2);
    private final ControllerForwarder controllerForwarder = new ControllerForwarder(1, Map.of(),
            AdminTestNode.FORWARD_TIMEOUT_MS);
    private final ControllerForwarder brokerForwarder;
    final NodeRequests controllerRequests;
    private final KafkaApis controllerApis;
    private final Server grpc;
    private final KafkaListenerServer controllerListener;
    private final KafkaListenerServer brokerListener;
    private final Map<String, String> aliceSsl;

    KafkaAuthzCluster(Path trustStore, Path nodeKeyStore, Path aliceKeyStore) throws Exception {
        NodeAccess access = NodeAccess.enabled(new AuthorizerSettings(Set.of(Principal.ANONYMOUS.toString(),
                ADMIN.principal().toString()), false), decision -> { });
        controllerRequests = NodeRequests.create(controller, controllerForwarder, AdminTestNode.CLUSTER_ID, access);
        grpc = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(new AdminServiceEndpoint(controllerRequests.admin(),
                        SystemTime.INSTANCE, 1).service().bindService(), new IdentityInterceptor(
                        SslPrincipalMapping.parse("DEFAULT"), Set.of(Principal.ANONYMOUS), refusals())))
                .build().start();
        broker.replay(controller);
        broker.knowController(1);
        brokerForwarder = new ControllerForwarder(2, Map.of(1, (InetSocketAddress) grpc.getListenSockets().get(0)),
                AdminTestNode.FORWARD_TIMEOUT_MS);
        NodeRequests brokerRequests = NodeRequests.create(broker, brokerForwarder, AdminTestNode.CLUSTER_ID, access);
        SslContext tls = KafkaTls.server(SslSettings.parse(TestPki.settings(nodeKeyStore, trustStore)::get),
                ClientAuthMode.REQUIRED);
        controllerApis = KafkaApis.forNode(controllerRequests, 1, reply -> reply.accept(
                KafkaDescribeQuorumApiTest.leaderAnswer()), QUORUM_LISTENER);
        controllerListener = listener("EXTERNAL", tls, controllerApis);
        brokerListener = listener("FORWARDING", tls, KafkaApis.forNode(brokerRequests, 2, reply -> reply.accept(
                KafkaDescribeQuorumApiTest.leaderAnswer()), QUORUM_LISTENER));
        aliceSsl = TestPki.settings(aliceKeyStore, trustStore);
        registerUnfenced(1, controllerListener);
        registerUnfenced(2, brokerListener);
        for (String topic : TOPICS) {
            createTopic(topic);
        }
    }

    private static RefusalLog refusals() {
        return new RefusalLog("[authz test] ", System::nanoTime);
    }

    private static KafkaListenerServer listener(String name, SslContext tls, KafkaApis apis) {
        return KafkaListenerServer.start(new KafkaListenerSettings("[authz test] ", name,
                new HostPort("127.0.0.1", 0), Optional.of(tls), SslPrincipalMapping.parse("DEFAULT"), refusals(),
                1 << 20, 600_000), apis, ScramCredentialStore.NONE);
    }

    /** Kafka's Admin client as alice, bootstrapped at the controller's listener or at the broker's. */
    Admin alice(boolean throughBroker) {
        Properties props = new Properties();
        HostPort at = (throughBroker ? brokerListener : controllerListener).boundAddress();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, at.host() + ":" + at.port());
        props.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SSL");
        props.putAll(aliceSsl);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(props);
    }

    /** Sends {@code request} as alice straight to the controller's API handlers, as its listener does. */
    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R raw(AbstractRequest request) throws Exception {
        CompletableFuture<AbstractResponse> answer = new CompletableFuture<>();
        controllerApis.handle(new KafkaCall(CallOrigin.CLIENT.by(new Caller(Principal.parse(ALICE), "127.0.0.1")),
                "EXTERNAL", request.version()), request, answer::complete);
        return (R) answer.get(10, TimeUnit.SECONDS);
    }

    /** Creates {@code acls} as the super user and waits until both nodes decide with them. */
    void grant(List<AclCreation> acls) {
        if (acls.isEmpty()) {
            return;
        }
        CreateAclsResponse created = AdminRequestsNode.await(reply -> controllerRequests.admin().createAcls(
                CreateAclsRequest.newBuilder().addAllCreations(acls).build(), CallOrigin.CLIENT.by(ADMIN), reply));
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.toString());
        created.getResultsList().forEach(r -> assertEquals(ErrorCode.NONE, r.getErrorCode(), r.toString()));
        await(() -> controller.committedImage().lastCommittedOffset() >= created.getCommitOffset());
    }

    private void createTopic(String name) {
        CreateTopicsRequest create = CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder()
                .setName(name).setNumPartitions(1).setReplicationFactor(1)).build();
        CreateTopicsResponse created = AdminRequestsNode.await(reply -> controllerRequests.admin().createTopics(
                create, CallOrigin.CLIENT.by(ADMIN), reply));
        assertEquals(ErrorCode.NONE, created.getTopics(0).getErrorCode(), created.toString());
        await(() -> controller.committedImage().topics().topic(name) != null);
    }

    private void registerUnfenced(int id, KafkaListenerServer listener) {
        HostPort at = listener.boundAddress();
        BrokerRegistrationRequest registration = BrokerRegistrationRequest.newBuilder()
                .setClusterId(AdminTestNode.CLUSTER_ID).setBrokerId(id).setIncarnationId(TopicIds.uuid(id, 42))
                .setRack("").addListeners(BrokerEndpoint.newBuilder().setName(listener.listenerName())
                        .setHost(at.host()).setPort(at.port())).build();
        BrokerRegistrationResponse registered = AdminRequestsNode.await(reply -> controllerRequests.lifecycle()
                .registerBroker(registration, CallOrigin.CLIENT.by(ADMIN), reply));
        assertEquals(ErrorCode.NONE, registered.getErrorCode(), registered.getErrorMessage());
        BrokerHeartbeatResponse beat = AdminRequestsNode.await(reply -> controllerRequests.lifecycle()
                .brokerHeartbeat(BrokerHeartbeatRequest.newBuilder().setBrokerId(id)
                        .setBrokerEpoch(registered.getBrokerEpoch())
                        .setCurrentMetadataOffset(registered.getBrokerEpoch()).build(), CallOrigin.CLIENT.by(ADMIN),
                        reply));
        assertFalse(beat.getIsFenced(), beat.toString());
        await(() -> controller.committedImage().cluster().broker(id) != null);
    }

    /** Waits (up to 10 s) until the controller's committed image shows what {@code condition} asks. */
    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "the image never showed the change");
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() throws Exception {
        controllerListener.close();
        brokerListener.close();
        brokerForwarder.close();
        controllerForwarder.close();
        grpc.shutdownNow();
        grpc.awaitTermination(5, TimeUnit.SECONDS);
        broker.close();
        controller.close();
    }
}
