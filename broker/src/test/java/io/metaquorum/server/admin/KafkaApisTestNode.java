package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.node.kafka.ConfigAclApis;
import io.metaquorum.node.kafka.ScramApis;
import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.node.kafka.QuorumDescriptions;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * One node serving the Kafka config, ACL and quorum APIs ({@link ConfigAclApis}) over a real
 * controller ({@link TestControllerGateway}, active), with the authorizer on and
 * {@code User:admin} its only super user; no sockets: a call goes straight to
 * {@link KafkaApis#handle}. DescribeQuorum answers whatever {@link #answerQuorumWith} set.
 */
final class KafkaApisTestNode implements AutoCloseable {
    static final Caller ADMIN = new Caller(Principal.user("admin"), "127.0.0.1");
    static final Caller MALLORY = new Caller(Principal.user("mallory"), "127.0.0.1");
    static final String LISTENER = "CONTROLLER";

    final TestControllerGateway gateway;
    final NodeRequests requests;
    private final ControllerForwarder forwarder;
    private final KafkaApis apis;
    private boolean brokerRegistered;
    private final AtomicReference<DescribeQuorumResponse> quorumAnswer =
            new AtomicReference<>(DescribeQuorumResponse.getDefaultInstance());

    KafkaApisTestNode() {
        this(true);
    }

    /** @param active whether node 1's controller is active; if not, it knows no controller to forward to */
    KafkaApisTestNode(boolean active) {
        gateway = active ? new TestControllerGateway(1).becomeActive() : new TestControllerGateway(1);
        forwarder = new ControllerForwarder(1, Map.of(), AdminTestNode.FORWARD_TIMEOUT_MS);
        requests = NodeRequests.create(gateway, forwarder, AdminTestNode.CLUSTER_ID, NodeAccess.enabled(
                new AuthorizerSettings(Set.of(ADMIN.principal().toString()), false), decision -> { }));
        Map<ApiKeys, KafkaApiHandler> handlers = new EnumMap<>(ApiKeys.class);
        QuorumDescriptions quorum = reply -> reply.accept(quorumAnswer.get());
        ConfigAclApis.register(handlers, requests.admin(), quorum, LISTENER);
        ScramApis.register(handlers, requests.admin());
        apis = new KafkaApis(handlers);
    }

    /** The APIs, to serve on a listener. */
    KafkaApis apis() {
        return apis;
    }

    void answerQuorumWith(DescribeQuorumResponse answer) {
        quorumAnswer.set(answer);
    }

    /** Calls as {@code caller} and waits for the answer. */
    @SuppressWarnings("unchecked")
    <R extends AbstractResponse> R call(Caller caller, AbstractRequest request) throws Exception {
        CompletableFuture<AbstractResponse> answer = new CompletableFuture<>();
        apis.handle(new KafkaCall(CallOrigin.CLIENT.by(caller), LISTENER, request.version()), request,
                answer::complete);
        return (R) answer.get(10, TimeUnit.SECONDS);
    }

    /** Registers broker {@code id} and heartbeats it unfenced, as the super user. */
    void registerUnfenced(int id) throws Exception {
        CompletableFuture<BrokerRegistrationResponse> registered = new CompletableFuture<>();
        requests.lifecycle().registerBroker(AdminTestNode.registration(id), CallOrigin.CLIENT.by(ADMIN),
                registered::complete);
        BrokerRegistrationResponse registration = registered.get(10, TimeUnit.SECONDS);
        assertEquals(ErrorCode.NONE, registration.getErrorCode(), registration.getErrorMessage());
        CompletableFuture<BrokerHeartbeatResponse> beat = new CompletableFuture<>();
        requests.lifecycle().brokerHeartbeat(BrokerHeartbeatRequest.newBuilder().setBrokerId(id)
                .setBrokerEpoch(registration.getBrokerEpoch()).setCurrentMetadataOffset(registration.getBrokerEpoch())
                .build(), CallOrigin.CLIENT.by(ADMIN), beat::complete);
        assertFalse(beat.get(10, TimeUnit.SECONDS).getIsFenced());
    }

    /** Creates {@code name} (one partition) as the super user and waits until the image holds it. */
    void createTopic(String name) throws Exception {
        if (!brokerRegistered) {
            registerUnfenced(1);
            brokerRegistered = true;
        }
        CreateTopicsRequest create = CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder()
                .setName(name).setNumPartitions(1).setReplicationFactor(1)).build();
        CompletableFuture<CreateTopicsResponse> created = new CompletableFuture<>();
        Consumer<CreateTopicsResponse> reply = created::complete;
        requests.admin().createTopics(create, CallOrigin.CLIENT.by(ADMIN), reply);
        assertEquals(ErrorCode.NONE, created.get(10, TimeUnit.SECONDS).getTopics(0).getErrorCode());
        awaitImage(() -> gateway.committedImage().topics().topic(name) != null);
    }

    /** Waits (up to 10 s) until the committed image shows what {@code condition} asks. */
    void awaitImage(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "the image never showed the change");
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() throws Exception {
        forwarder.close();
        gateway.close();
    }
}
