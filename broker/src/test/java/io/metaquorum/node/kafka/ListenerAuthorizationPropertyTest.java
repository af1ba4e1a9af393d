package io.metaquorum.node.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.authorizer.AuthorizerSettings;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import io.metaquorum.server.admin.AdminRequestsNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DeleteTopicsResponse;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.MetadataResponse;

/**
 * Random ACL sets over three principals, four topic names (t1-t3 exist, t4 does not), the
 * wildcard, a prefix and the cluster, ALLOW and DENY: alice's per-topic answers from the
 * listener's Metadata, DescribeConfigs, CreateTopics (validate only) and DeleteTopics equal
 * Kafka's per-API rule worked out from the project's authorizer on the same image (its
 * decisions are compared with Kafka's StandardAuthorizer elsewhere), so what is tested here is
 * how each adapter combines them: which right, in which order, before or after existence.
 */
class ListenerAuthorizationPropertyTest {
    private static final CallOrigin ADMIN = CallOrigin.CLIENT.by(new Caller(Principal.user("admin"), "127.0.0.1"));
    private static final Caller ALICE = new Caller(Principal.user("alice"), "127.0.0.1");
    private static final AuthorizerSettings SETTINGS = new AuthorizerSettings(Set.of("User:admin"), false);
    private static final List<String> NAMES = List.of("t1", "t2", "t3", "t4");
    private static final List<String> EXISTING = List.of("t1", "t2", "t3");

    /** One ACL: on the cluster when {@code name} is null. */
    record Acl(String principal, boolean allow, AclOperation operation, String name, boolean prefixed) {
        AclCreation creation() {
            boolean cluster = name == null;
            return AclCreation.newBuilder().setPrincipal(principal).setHost("*")
                    .setPermissionType((allow ? PermissionType.ALLOW : PermissionType.DENY).code())
                    .setOperation(operation.code())
                    .setResourceType((cluster ? ResourceType.CLUSTER : ResourceType.TOPIC).code())
                    .setResourceName(cluster ? Authorizer.CLUSTER_NAME : name)
                    .setPatternType((prefixed ? PatternType.PREFIXED : PatternType.LITERAL).code()).build();
        }
    }

    @Provide
    Arbitrary<List<Acl>> aclSets() {
        Arbitrary<String> principals = Arbitraries.of("User:alice", "User:bob", "User:*");
        Arbitrary<Acl> topicAcls = Combinators.combine(principals, Arbitraries.of(true, true, false),
                Arbitraries.of(AclOperation.READ, AclOperation.CREATE, AclOperation.DELETE, AclOperation.ALTER,
                        AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS,
                        AclOperation.ALL), Arbitraries.of("t1", "t2", "t3", "t4", "t5", "*", "t"))
                .as((principal, allow, operation, name) -> new Acl(principal, allow, operation, name,
                        name.equals("t")));
        Arbitrary<Acl> clusterAcls = Combinators.combine(principals, Arbitraries.of(true, false),
                Arbitraries.of(AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.ALL))
                .as((principal, allow, operation) -> new Acl(principal, allow, operation, null, false));
        return Arbitraries.frequencyOf(Tuple.of(5, topicAcls), Tuple.of(1, clusterAcls))
                .list().ofMaxSize(8).uniqueElements();
    }

    @Property(tries = 100)
    void everyTopicIsAnsweredByKafkasRuleForItsApi(@ForAll("aclSets") List<Acl> acls) throws Exception {
        try (KafkaHarness kafka = new KafkaHarness(NodeAccess.enabled(SETTINGS, decision -> { })).brokers(ADMIN, 1)) {
            CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(5_000);
            EXISTING.forEach(name -> create.topics().add(KafkaHarness.topic(name, 1, 1)));
            kafka.<CreateTopicsResponse>call(create, ApiKeys.CREATE_TOPICS.latestVersion(), ADMIN).data().topics()
                    .forEach(t -> assertEquals(Errors.NONE.code(), t.errorCode(), t.toString()));
            grant(kafka, acls);
            kafka.node.awaitImage(() -> kafka.node.image().topics().topicCount() == EXISTING.size());
            Rules rules = new Rules(kafka);
            CallOrigin alice = CallOrigin.CLIENT.by(ALICE);
            assertEquals(rules.metadata(), metadata(kafka, alice), acls.toString());
            assertEquals(rules.describeConfigs(), describeConfigs(kafka, alice), acls.toString());
            assertEquals(rules.createTopics(), createTopics(kafka, alice), acls.toString());
            assertEquals(rules.deleteTopics(), deleteTopics(kafka, alice), acls.toString());
        }
    }

    private static void grant(KafkaHarness kafka, List<Acl> acls) {
        if (acls.isEmpty()) {
            return;
        }
        CreateAclsRequest request = CreateAclsRequest.newBuilder().addAllCreations(acls.stream().map(Acl::creation)
                .toList()).build();
        CreateAclsResponse created = AdminRequestsNode.await(reply -> kafka.node.admin().createAcls(request, ADMIN,
                reply));
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.toString());
        created.getResultsList().forEach(r -> assertEquals(ErrorCode.NONE, r.getErrorCode(), r.toString()));
        kafka.node.awaitImage(() -> kafka.node.image().lastCommittedOffset() >= created.getCommitOffset());
    }

    /** Kafka's rule per API, from the authorizer's decisions for alice on the node's image. */
    private record Rules(KafkaHarness kafka) {
        private boolean allows(AclOperation operation, ResourceType type, String name) {
            return Authorizer.allows(kafka.node.image().acls(), SETTINGS, ALICE.principal().toString(), ALICE.host(),
                    operation, type, name);
        }

        private boolean onTopic(AclOperation operation, String name) {
            return allows(operation, ResourceType.TOPIC, name);
        }

        private boolean onCluster(AclOperation operation) {
            return allows(operation, ResourceType.CLUSTER, Authorizer.CLUSTER_NAME);
        }

        private static Errors existence(String name) {
            return EXISTING.contains(name) ? Errors.NONE : Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }

        Map<String, Errors> metadata() {
            Map<String, Errors> out = new LinkedHashMap<>();
            NAMES.forEach(n -> out.put(n, onTopic(AclOperation.DESCRIBE, n) ? existence(n)
                    : Errors.TOPIC_AUTHORIZATION_FAILED));
            return out;
        }

        Map<String, Errors> describeConfigs() {
            Map<String, Errors> out = new LinkedHashMap<>();
            NAMES.forEach(n -> out.put(n, onTopic(AclOperation.DESCRIBE_CONFIGS, n) ? existence(n)
                    : Errors.TOPIC_AUTHORIZATION_FAILED));
            return out;
        }

        Map<String, Errors> createTopics() {
            Map<String, Errors> out = new LinkedHashMap<>();
            for (String n : List.of("t1", "t5")) {
                boolean may = onCluster(AclOperation.CREATE) || onTopic(AclOperation.CREATE, n);
                out.put(n, !may ? Errors.TOPIC_AUTHORIZATION_FAILED
                        : EXISTING.contains(n) ? Errors.TOPIC_ALREADY_EXISTS : Errors.NONE);
            }
            return out;
        }

        Map<String, Errors> deleteTopics() {
            Map<String, Errors> out = new LinkedHashMap<>();
            for (String n : List.of("t1", "t4")) {
                Errors answer;
                if (onCluster(AclOperation.DELETE)) {
                    answer = existence(n);
                } else if (!onTopic(AclOperation.DESCRIBE, n)) {
                    answer = Errors.TOPIC_AUTHORIZATION_FAILED;
                } else if (!EXISTING.contains(n)) {
                    answer = Errors.UNKNOWN_TOPIC_OR_PARTITION;
                } else {
                    answer = onTopic(AclOperation.DELETE, n) ? Errors.NONE : Errors.TOPIC_AUTHORIZATION_FAILED;
                }
                out.put(n, answer);
            }
            return out;
        }
    }

    private static Map<String, Errors> metadata(KafkaHarness kafka, CallOrigin alice) {
        List<MetadataRequestTopic> topics = new ArrayList<>();
        NAMES.forEach(n -> topics.add(new MetadataRequestTopic().setName(n)));
        MetadataResponse answer = kafka.call(new MetadataRequestData().setTopics(topics)
                .setAllowAutoTopicCreation(false), ApiKeys.METADATA.latestVersion(), alice);
        Map<String, Errors> out = new LinkedHashMap<>();
        NAMES.forEach(n -> out.put(n, Errors.forCode(answer.data().topics().find(n).errorCode())));
        return out;
    }

    private static Map<String, Errors> describeConfigs(KafkaHarness kafka, CallOrigin alice) {
        DescribeConfigsRequestData data = new DescribeConfigsRequestData();
        NAMES.forEach(n -> data.resources().add(new DescribeConfigsRequestData.DescribeConfigsResource()
                .setResourceType(ConfigResource.Type.TOPIC.id()).setResourceName(n)));
        DescribeConfigsResponse answer = kafka.call(data, ApiKeys.DESCRIBE_CONFIGS.latestVersion(), alice);
        Map<String, Errors> out = new LinkedHashMap<>();
        answer.data().results().forEach(r -> out.put(r.resourceName(), Errors.forCode(r.errorCode())));
        return out;
    }

    private static Map<String, Errors> createTopics(KafkaHarness kafka, CallOrigin alice) {
        CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(5_000).setValidateOnly(true);
        List.of("t1", "t5").forEach(n -> data.topics().add(KafkaHarness.topic(n, 1, 1)));
        CreateTopicsResponse answer = kafka.call(data, ApiKeys.CREATE_TOPICS.latestVersion(), alice);
        Map<String, Errors> out = new LinkedHashMap<>();
        List.of("t1", "t5").forEach(n -> out.put(n, Errors.forCode(answer.data().topics().find(n).errorCode())));
        return out;
    }

    private static Map<String, Errors> deleteTopics(KafkaHarness kafka, CallOrigin alice) {
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTopicNames(List.of("t1", "t4"))
                .setTimeoutMs(5_000);
        DeleteTopicsResponse answer = kafka.call(data, (short) 5, alice);
        Map<String, Errors> out = new LinkedHashMap<>();
        List.of("t1", "t4").forEach(n -> out.put(n, Errors.forCode(answer.data().responses().find(n).errorCode())));
        return out;
    }
}
