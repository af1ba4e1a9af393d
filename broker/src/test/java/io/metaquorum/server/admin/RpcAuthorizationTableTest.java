package io.metaquorum.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.metadata.authorizer.Decision;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.access.RpcAccess;
import io.metaquorum.node.access.RpcAccessTable;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.node.admin.NodeRequests;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.AdminServiceGrpc;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.AlterUserScramCredentialsRequest;
import io.metaquorum.protocol.AlterUserScramCredentialsResponse;
import io.metaquorum.protocol.DescribeUserScramCredentialsRequest;
import io.metaquorum.protocol.ScramCredentialUpsertion;
import io.metaquorum.protocol.BrokerHeartbeatRequest;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.BrokerRegistrationResponse;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ControlledShutdownRequest;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.BrokerHeartbeatResponse;
import io.metaquorum.protocol.ControlledShutdownResponse;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.IncrementalAlterConfigsResponse;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeClusterRequest;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeTopicsRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.IncrementalAlterConfigsRequest;
import io.metaquorum.protocol.ListTopicsRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every admin and broker-lifecycle RPC of {@link RpcAccessTable}, called on a node with the
 * authorizer on: as a principal with no rights (its row's authorization error, and nothing
 * written), with the one ACL its row names (allowed), as a super user (allowed), and as
 * {@code User:ANONYMOUS} (denied like anyone without rights). The raft service's rows are
 * {@link RaftAccessInterceptorTest}'s. A new RPC without a row, or a row without a probe here,
 * fails {@link #everyRpcOfEveryServiceHasOneRowAndEveryAdminRowAProbe}.
 */
class RpcAuthorizationTableTest {
    private static final Caller ADMIN = new Caller(Principal.user("admin"), "127.0.0.1");
    private static final Caller MALLORY = new Caller(Principal.user("mallory"), "127.0.0.1");
    private static final Caller ANONYMOUS = new Caller(Principal.ANONYMOUS, "127.0.0.1");
    private static final Set<ErrorCode> DENIALS = EnumSet.of(ErrorCode.TOPIC_AUTHORIZATION_FAILED,
            ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    private final List<Decision> audited = new ArrayList<>();
    private TestControllerGateway gateway;
    private ControllerForwarder forwarder;
    private NodeRequests node;

    /** One RPC: how to call it, and the one ACL that lets a principal call it. */
    private record Probe(String rpc, ResourceType type, String name, AclOperation operation, Call call) {
    }

    /** Calls the RPC as {@code origin}; the answer, or (for a listing) whether it showed the topic. */
    @FunctionalInterface
    private interface Call {
        Message call(NodeRequests node, CallOrigin origin) throws Exception;
    }

    @BeforeEach
    void startNode() throws Exception {
        gateway = new TestControllerGateway(1).becomeActive();
        forwarder = new ControllerForwarder(1, Map.of(), AdminTestNode.FORWARD_TIMEOUT_MS);
        node = NodeRequests.create(gateway, forwarder, AdminTestNode.CLUSTER_ID, NodeAccess.enabled(
                new AuthorizerSettings(Set.of(ADMIN.principal().toString()), false), audited::add));
        CallOrigin admin = as(ADMIN);
        for (int broker = 1; broker <= 3; broker++) {
            BrokerRegistrationRequest registration = AdminTestNode.registration(broker);
            BrokerRegistrationResponse registered = RpcAuthorizationTableTest.<BrokerRegistrationResponse>await(reply -> node.lifecycle().registerBroker(registration,
                    admin, reply));
            assertEquals(ErrorCode.NONE, registered.getErrorCode(), registered.getErrorMessage());
            BrokerHeartbeatRequest unfence = BrokerHeartbeatRequest.newBuilder().setBrokerId(broker)
                    .setBrokerEpoch(registered.getBrokerEpoch()).setCurrentMetadataOffset(registered.getBrokerEpoch())
                    .build();
            BrokerHeartbeatResponse beat = await(reply -> node.lifecycle().brokerHeartbeat(unfence, admin, reply));
            assertFalse(beat.getIsFenced(), beat.toString());
        }
        for (String topic : List.of("orders", "payments", "doomed")) {
            CreateTopicsRequest create = CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder()
                    .setName(topic).setNumPartitions(1).setReplicationFactor(1)).build();
            CreateTopicsResponse created = await(reply -> node.admin().createTopics(create, admin, reply));
            assertEquals(ErrorCode.NONE, created.getTopics(0).getErrorCode(), created.toString());
        }
        // The answer can come before the gateway publishes the image with the topic: the probes
        // compare images, so they start from the one that holds all three.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (gateway.committedImage().topics().topicCount() < 3) {
            assertTrue(System.nanoTime() < deadline, "the topics created in setup never reached the image");
            Thread.onSpinWait();
        }
    }

    @AfterEach
    void stopNode() throws Exception {
        forwarder.close();
        gateway.close();
    }

    private static CallOrigin as(Caller caller) {
        return CallOrigin.CLIENT.by(caller);
    }

    private List<Probe> probes() {
        return List.of(
                new Probe("CreateTopics", ResourceType.TOPIC, "fresh", AclOperation.CREATE, (n, o) -> RpcAuthorizationTableTest.<CreateTopicsResponse>await(reply ->
                        n.admin().createTopics(CreateTopicsRequest.newBuilder().addTopics(CreatableTopic.newBuilder()
                                .setName("fresh").setNumPartitions(1).setReplicationFactor(1)).build(), o, reply))),
                new Probe("DeleteTopics", ResourceType.TOPIC, "doomed", AclOperation.DELETE, (n, o) -> RpcAuthorizationTableTest.<DeleteTopicsResponse>await(reply ->
                        n.admin().deleteTopics(DeleteTopicsRequest.newBuilder().addTopics(TopicRef.newBuilder()
                                .setName("doomed")).build(), o, reply))),
                new Probe("CreatePartitions", ResourceType.TOPIC, "orders", AclOperation.ALTER, (n, o) -> RpcAuthorizationTableTest.<CreatePartitionsResponse>await(reply ->
                        n.admin().createPartitions(CreatePartitionsRequest.newBuilder().addTopics(
                                CreatePartitionsTopic.newBuilder().setName("orders").setCount(2)).build(), o, reply))),
                new Probe("ListTopics", ResourceType.TOPIC, "payments", AclOperation.DESCRIBE, (n, o) -> listing(
                        n.admin().listTopics(ListTopicsRequest.getDefaultInstance(), o).getTopicsList().stream()
                                .anyMatch(t -> t.getName().equals("payments")))),
                new Probe("DescribeTopics", ResourceType.TOPIC, "payments", AclOperation.DESCRIBE, (n, o) ->
                        n.admin().describeTopics(DescribeTopicsRequest.newBuilder().addTopics(TopicRef.newBuilder()
                                .setName("payments")).build(), o)),
                new Probe("DescribeConfigs", ResourceType.TOPIC, "payments", AclOperation.DESCRIBE_CONFIGS, (n, o) ->
                        n.admin().describeConfigs(DescribeConfigsRequest.newBuilder().addResources(
                                DescribeConfigsResource.newBuilder().setResourceType(
                                        ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName("payments")).build(),
                                o)),
                new Probe("IncrementalAlterConfigs", ResourceType.TOPIC, "payments", AclOperation.ALTER_CONFIGS,
                        (n, o) -> RpcAuthorizationTableTest.<IncrementalAlterConfigsResponse>await(reply -> n.admin().incrementalAlterConfigs(
                                IncrementalAlterConfigsRequest.newBuilder().addResources(AlterConfigsResource
                                        .newBuilder().setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC)
                                        .setResourceName("payments").addConfigs(AlterableConfig.newBuilder()
                                                .setName("retention.ms").setValue("60000"))).build(), o, reply))),
                new Probe("DescribeCluster", ResourceType.CLUSTER, "kafka-cluster", AclOperation.DESCRIBE, (n, o) ->
                        n.admin().describeCluster(DescribeClusterRequest.getDefaultInstance(), o)),
                new Probe("CreateAcls", ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALTER, (n, o) ->
                        RpcAuthorizationTableTest.<CreateAclsResponse>await(reply -> n.admin().createAcls(CreateAclsRequest.newBuilder().addCreations(
                                acl("User:carol", ResourceType.GROUP, "g", AclOperation.READ)).build(), o, reply))),
                new Probe("DescribeAcls", ResourceType.CLUSTER, "kafka-cluster", AclOperation.DESCRIBE, (n, o) ->
                        n.admin().describeAcls(DescribeAclsRequest.newBuilder().setFilter(anyAcl()).build(), o)),
                new Probe("DeleteAcls", ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALTER, (n, o) ->
                        RpcAuthorizationTableTest.<DeleteAclsResponse>await(reply -> n.admin().deleteAcls(DeleteAclsRequest.newBuilder().addFilters(
                                anyAcl().toBuilder().setPrincipal("User:nobody")).build(), o, reply))),
                new Probe("ExplainAcl", ResourceType.CLUSTER, "kafka-cluster", AclOperation.DESCRIBE, (n, o) ->
                        n.admin().explainAcl(ExplainAclRequest.newBuilder().setPrincipal("User:bob").setHost("*")
                                .setOperation(AclOperation.READ.code()).setResourceType(ResourceType.TOPIC.code())
                                .setResourceName("orders").build(), o)),
                new Probe("AlterUserScramCredentials", ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALTER,
                        (n, o) -> RpcAuthorizationTableTest.<AlterUserScramCredentialsResponse>await(reply -> n.admin()
                                .alterUserScramCredentials(AlterUserScramCredentialsRequest.newBuilder().addUpsertions(
                                        ScramCredentialUpsertion.newBuilder().setName("carol").setMechanism(1)
                                                .setIterations(4096).setSalt(ByteString.copyFromUtf8("salt"))
                                                .setSaltedPassword(ByteString.copyFromUtf8("salted"))).build(), o,
                                        reply))),
                new Probe("DescribeUserScramCredentials", ResourceType.CLUSTER, "kafka-cluster",
                        AclOperation.DESCRIBE, (n, o) -> n.admin().describeUserScramCredentials(
                                DescribeUserScramCredentialsRequest.getDefaultInstance(), o)),
                new Probe("RegisterBroker", ResourceType.CLUSTER, "kafka-cluster", AclOperation.CLUSTER_ACTION,
                        (n, o) -> RpcAuthorizationTableTest.<BrokerRegistrationResponse>await(reply -> n.lifecycle().registerBroker(AdminTestNode.registration(9), o,
                                reply))),
                new Probe("BrokerHeartbeat", ResourceType.CLUSTER, "kafka-cluster", AclOperation.CLUSTER_ACTION,
                        (n, o) -> RpcAuthorizationTableTest.<BrokerHeartbeatResponse>await(reply -> n.lifecycle().brokerHeartbeat(BrokerHeartbeatRequest.newBuilder()
                                .setBrokerId(1).setBrokerEpoch(brokerEpoch(1)).build(), o, reply))),
                new Probe("ControlledShutdown", ResourceType.CLUSTER, "kafka-cluster", AclOperation.CLUSTER_ACTION,
                        (n, o) -> RpcAuthorizationTableTest.<ControlledShutdownResponse>await(reply -> n.lifecycle().controlledShutdown(ControlledShutdownRequest
                                .newBuilder().setBrokerId(3).setBrokerEpoch(brokerEpoch(3)).build(), o, reply))));
    }

    @Test
    void everyRpcOfEveryServiceHasOneRowAndEveryAdminRowAProbe() {
        Set<String> methods = new TreeSet<>();
        for (ServiceDescriptor service : List.of(AdminServiceGrpc.getServiceDescriptor(),
                BrokerLifecycleServiceGrpc.getServiceDescriptor(), RaftServiceGrpc.getServiceDescriptor())) {
            for (MethodDescriptor<?, ?> method : service.getMethods()) {
                methods.add(method.getFullMethodName());
            }
        }
        Set<String> rows = new TreeSet<>();
        RpcAccessTable.ROWS.forEach(row -> assertTrue(rows.add(row.fullMethodName()), "two rows for " + row));
        assertEquals(methods, rows, "every RPC has exactly one row in RpcAccessTable, and every row an RPC");
        Set<String> probed = new TreeSet<>();
        probes().forEach(probe -> probed.add(probe.rpc()));
        Set<String> nonRaft = new TreeSet<>();
        RpcAccessTable.ROWS.stream().filter(row -> !row.service().equals("RaftService"))
                .forEach(row -> nonRaft.add(row.rpc()));
        assertEquals(nonRaft, probed, "every admin and lifecycle row is probed here");
    }

    @Test
    void theProbesAskWhatTheirRowSays() {
        for (Probe probe : probes()) {
            RpcAccess row = RpcAccessTable.ROWS.stream().filter(r -> r.rpc().equals(probe.rpc())).findFirst()
                    .orElseThrow();
            assertEquals(row.operation(), probe.operation(), probe.rpc());
        }
    }

    @Test
    void withoutRightsEveryRpcIsDeniedAndWritesNothing() throws Exception {
        for (Caller nobody : List.of(MALLORY, ANONYMOUS)) {
            for (Probe probe : probes()) {
                List<Object> before = state();
                int auditedBefore = audited.size();
                Message answer = probe.call().call(node, as(nobody));
                assertTrue(isDenied(answer), probe.rpc() + " as " + nobody + " must be denied: " + answer);
                assertEquals(before, state(), probe.rpc() + " as " + nobody + " changed the metadata");
                if (!probe.rpc().equals("ListTopics")) {
                    assertTrue(audited.size() > auditedBefore, probe.rpc() + ": the denial is audited");
                    Decision last = audited.get(audited.size() - 1);
                    assertEquals(nobody.principal().toString(), last.request().principal());
                    assertFalse(last.allowed());
                }
            }
        }
    }

    @Test
    void theOneAclOfItsRowAllowsEachRpc() throws Exception {
        for (Probe probe : probes()) {
            Caller minimal = new Caller(Principal.user("min-" + probe.rpc()), "127.0.0.1");
            grant(minimal, probe);
            Message answer = probe.call().call(node, as(minimal));
            assertFalse(isDenied(answer), probe.rpc() + " with ALLOW " + probe.operation() + " on " + probe.type()
                    + " " + probe.name() + " must be allowed: " + answer);
        }
    }

    @Test
    void aSuperUserIsAllowedEveryRpc() throws Exception {
        for (Probe probe : probes()) {
            Message answer = probe.call().call(node, as(ADMIN));
            assertFalse(isDenied(answer), probe.rpc() + " as a super user: " + answer);
        }
    }

    @Test
    void aDeniedTopicAnswersTheSameWhetherOrNotItExists() throws Exception {
        CallOrigin mallory = as(MALLORY);
        Map<String, Set<ErrorCode>> answers = new LinkedHashMap<>();
        for (String topic : List.of("orders", "no-such-topic")) {
            answers.put(topic, denials(node.admin().describeTopics(DescribeTopicsRequest.newBuilder()
                    .addTopics(TopicRef.newBuilder().setName(topic)).build(), mallory)));
        }
        assertEquals(Set.of(ErrorCode.TOPIC_AUTHORIZATION_FAILED), answers.get("orders"));
        assertEquals(answers.get("orders"), answers.get("no-such-topic"));
    }

    /**
     * What a call could change: topics, configs, ACLs, SCRAM credentials and which brokers are registered (the
     * controller's own records, such as fencing a broker whose session lapsed, may come and go).
     */
    private List<Object> state() {
        MetadataImage image = gateway.committedImage();
        return List.of(image.topics(), image.configs(), image.acls(), image.scram(), image.cluster().sortedById().stream()
                .map(broker -> broker.id() + "@" + broker.epoch()).toList());
    }

    @Test
    void aCreateAllowedWithoutDescribeConfigsHidesWhatItCreated() throws Exception {
        Caller creator = new Caller(Principal.user("creator"), "127.0.0.1");
        grant(creator, new Probe("CreateTopics", ResourceType.TOPIC, "fresh", AclOperation.CREATE, null));
        CreateTopicsResponse created = await(reply -> node.admin().createTopics(CreateTopicsRequest.newBuilder()
                .addTopics(CreatableTopic.newBuilder().setName("fresh").setNumPartitions(2).setReplicationFactor(1))
                .setTimeoutMs(10_000).build(), as(creator), reply));
        assertEquals(ErrorCode.NONE, created.getTopics(0).getErrorCode());
        assertEquals(ErrorCode.TOPIC_AUTHORIZATION_FAILED, created.getTopics(0).getTopicConfigErrorCode());
        assertEquals(-1, created.getTopics(0).getNumPartitions());
        assertEquals(0, created.getTopics(0).getConfigsCount());
        assertEquals(2, gateway.committedImage().topics().topic("fresh").partitionCount(), "created all the same");
    }

    @Test
    void aPartlyAuthorizedBatchAnswersEachTopicInRequestOrder() throws Exception {
        Caller creator = new Caller(Principal.user("creator"), "127.0.0.1");
        grant(creator, new Probe("CreateTopics", ResourceType.TOPIC, "mine", AclOperation.CREATE, null));
        CreateTopicsRequest.Builder request = CreateTopicsRequest.newBuilder().setTimeoutMs(10_000);
        for (String name : List.of("theirs", "mine", "orders")) {
            request.addTopics(CreatableTopic.newBuilder().setName(name).setNumPartitions(1).setReplicationFactor(1));
        }
        CreateTopicsResponse answer = await(reply -> node.admin().createTopics(request.build(), as(creator), reply));
        assertEquals(List.of("theirs", "mine", "orders"), answer.getTopicsList().stream()
                .map(t -> t.getName()).toList());
        assertEquals(List.of(ErrorCode.TOPIC_AUTHORIZATION_FAILED, ErrorCode.NONE,
                ErrorCode.TOPIC_AUTHORIZATION_FAILED), answer.getTopicsList().stream().map(t -> t.getErrorCode())
                .toList(), "orders exists, but the caller may not learn it");
        assertTrue(gateway.committedImage().topics().topic("mine") != null);
        assertEquals(null, gateway.committedImage().topics().topic("theirs"));
    }

    private void grant(Caller caller, Probe probe) throws Exception {
        CreateAclsResponse created = RpcAuthorizationTableTest.<CreateAclsResponse>await(reply -> node.admin().createAcls(CreateAclsRequest.newBuilder()
                .addCreations(acl(caller.principal().toString(), probe.type(), probe.name(), probe.operation()))
                .build(), as(ADMIN), reply));
        assertEquals(ErrorCode.NONE, created.getResults(0).getErrorCode(), created.toString());
    }

    private static AclCreation acl(String principal, ResourceType type, String name, AclOperation operation) {
        return AclCreation.newBuilder().setResourceType(type.code()).setResourceName(name)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal(principal).setHost("*")
                .setOperation(operation.code()).setPermissionType(PermissionType.ALLOW.code()).build();
    }

    private static AclFilter anyAcl() {
        return AclFilter.newBuilder().setResourceType(ResourceType.ANY.code()).setPatternType(PatternType.ANY.code())
                .setOperation(AclOperation.ANY.code()).setPermissionType(PermissionType.ANY.code()).build();
    }

    private long brokerEpoch(int brokerId) {
        return gateway.committedImage().cluster().broker(brokerId).epoch();
    }

    /** A listing answers as a message with TOPIC_AUTHORIZATION_FAILED when the topic was left out. */
    private static Message listing(boolean shown) {
        return AdminResponseHeader.newBuilder().setErrorCode(shown ? ErrorCode.NONE
                : ErrorCode.TOPIC_AUTHORIZATION_FAILED).build();
    }

    private static boolean isDenied(Message answer) {
        return !denials(answer).isEmpty();
    }

    /**
     * The authorization error codes anywhere in {@code answer}, but for a created topic's
     * {@code topic_config_error_code}: a create allowed without DESCRIBE_CONFIGS is allowed.
     */
    private static Set<ErrorCode> denials(Message answer) {
        Set<ErrorCode> out = EnumSet.noneOf(ErrorCode.class);
        collect(answer, out);
        out.retainAll(DENIALS);
        return out;
    }

    private static void collect(Message message, Set<ErrorCode> out) {
        for (Map.Entry<Descriptors.FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
            List<?> values = field.getKey().isRepeated() ? (List<?>) field.getValue() : List.of(field.getValue());
            for (Object value : values) {
                if (value instanceof Message nested) {
                    collect(nested, out);
                } else if (value instanceof Descriptors.EnumValueDescriptor e
                        && e.getType().equals(ErrorCode.getDescriptor())
                        && !field.getKey().getName().equals("topic_config_error_code")) {
                    out.add(ErrorCode.forNumber(e.getNumber()));
                }
            }
        }
    }

    private static <R> R await(Consumer<Consumer<R>> call) throws Exception {
        CompletableFuture<R> answer = new CompletableFuture<>();
        call.accept(answer::complete);
        return answer.get(10, TimeUnit.SECONDS);
    }
}
