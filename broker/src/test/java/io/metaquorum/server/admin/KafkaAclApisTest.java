package io.metaquorum.server.admin;

import static io.metaquorum.server.admin.KafkaApisTestNode.ADMIN;
import static io.metaquorum.server.admin.KafkaApisTestNode.MALLORY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import org.apache.kafka.common.message.DescribeAclsResponseData.AclDescription;
import org.apache.kafka.common.message.DescribeAclsResponseData.DescribeAclsResource;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's CreateAcls, DescribeAcls and DeleteAcls on a node with the authorizer on, built the
 * way Kafka's admin client builds them (its AclBinding and AclBindingFilter classes).
 */
class KafkaAclApisTest {
    private static final short CREATE_LATEST = ApiKeys.CREATE_ACLS.latestVersion();

    private KafkaApisTestNode node;

    @BeforeEach
    void start() {
        node = new KafkaApisTestNode();
    }

    @AfterEach
    void stop() throws Exception {
        node.close();
    }

    private static AclBinding binding(ResourceType type, String name, PatternType pattern, String principal,
                                      AclOperation operation, AclPermissionType permission) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", operation, permission));
    }

    private static CreateAclsRequest create(AclBinding... bindings) {
        return create(List.of(bindings).stream().map(CreateAclsRequest::aclCreation).toList());
    }

    private static CreateAclsRequest create(List<CreateAclsRequestData.AclCreation> creations) {
        return new CreateAclsRequest.Builder(new CreateAclsRequestData().setCreations(creations)).build(CREATE_LATEST);
    }

    private static AclBindingFilter matching(String topic) {
        return new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, topic, PatternType.MATCH),
                AccessControlEntryFilter.ANY);
    }

    private static DeleteAclsRequest delete(AclBindingFilter... filters) {
        List<DeleteAclsRequestData.DeleteAclsFilter> data = List.of(filters).stream()
                .map(DeleteAclsRequest::deleteAclsFilter).toList();
        return new DeleteAclsRequest.Builder(new DeleteAclsRequestData().setFilters(data))
                .build(ApiKeys.DELETE_ACLS.latestVersion());
    }

    @Test
    void createsOnePerCreationDescribesGroupedByPatternAndDeletesWhatMatched() throws Exception {
        // Kafka's client refuses to build an ACL for operation ANY; another client may send one.
        CreateAclsRequestData.AclCreation anyOperation = CreateAclsRequest.aclCreation(binding(ResourceType.TOPIC,
                "orders", PatternType.LITERAL, "User:dave", AclOperation.READ, AclPermissionType.ALLOW))
                .setOperation(AclOperation.ANY.code());
        CreateAclsResponse created = node.call(ADMIN, create(List.of(
                CreateAclsRequest.aclCreation(binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice",
                        AclOperation.READ, AclPermissionType.ALLOW)),
                CreateAclsRequest.aclCreation(binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:bob",
                        AclOperation.WRITE, AclPermissionType.DENY)),
                CreateAclsRequest.aclCreation(binding(ResourceType.TOPIC, "ord", PatternType.PREFIXED, "User:carol",
                        AclOperation.DESCRIBE, AclPermissionType.ALLOW)),
                anyOperation)));
        List<Short> codes = created.results().stream().map(r -> r.errorCode()).toList();
        assertEquals(List.of(Errors.NONE.code(), Errors.NONE.code(), Errors.NONE.code(), Errors.INVALID_REQUEST.code()),
                codes);
        assertNull(created.results().get(0).errorMessage());
        assertTrue(created.results().get(3).errorMessage().contains("operation ANY"),
                created.results().get(3).errorMessage());
        node.awaitImage(() -> node.gateway.committedImage().acls().matching(anyAcl()).size() == 3);

        DescribeAclsResponse described = node.call(ADMIN, new DescribeAclsRequest.Builder(matching("orders"))
                .build(ApiKeys.DESCRIBE_ACLS.latestVersion()));
        assertEquals(Errors.NONE.code(), described.data().errorCode());
        assertNull(described.data().errorMessage());
        List<DescribeAclsResource> resources = described.data().resources();
        assertEquals(List.of("ord/" + PatternType.PREFIXED.code(), "orders/" + PatternType.LITERAL.code()),
                resources.stream().map(r -> r.resourceName() + "/" + r.patternType()).toList());
        assertEquals(List.of("User:alice", "User:bob"), resources.get(1).acls().stream()
                .map(AclDescription::principal).toList());
        AclDescription bob = resources.get(1).acls().get(1);
        assertEquals(AclOperation.WRITE.code(), bob.operation());
        assertEquals(AclPermissionType.DENY.code(), bob.permissionType());
        assertEquals("*", bob.host());
        assertEquals(ResourceType.TOPIC.code(), resources.get(1).resourceType());
        assertEquals(3, DescribeAclsResponse.aclBindings(resources).size(), "Kafka's client reads every binding back");

        DeleteAclsResponse deleted = node.call(ADMIN, delete(
                new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                        AccessControlEntryFilter.ANY),
                new AclBindingFilter(ResourcePatternFilter.ANY, new AccessControlEntryFilter("User:bob", null,
                        AclOperation.ANY, AclPermissionType.ANY))));
        List<DeleteAclsFilterResult> results = deleted.filterResults();
        assertEquals(2, results.size());
        assertEquals(Errors.NONE.code(), results.get(0).errorCode());
        assertEquals(List.of("User:alice", "User:bob"), results.get(0).matchingAcls().stream()
                .map(DeleteAclsMatchingAcl::principal).toList());
        assertEquals(List.of("User:bob"), results.get(1).matchingAcls().stream()
                .map(DeleteAclsMatchingAcl::principal).toList(), "an ACL two filters match is listed under both");
        DeleteAclsMatchingAcl alice = results.get(0).matchingAcls().get(0);
        assertEquals(Errors.NONE.code(), alice.errorCode());
        assertEquals("orders", alice.resourceName());
        assertEquals(PatternType.LITERAL.code(), alice.patternType());
        assertEquals(AclOperation.READ.code(), alice.operation());
    }

    private static io.metaquorum.metadata.acl.AclBindingFilter anyAcl() {
        return io.metaquorum.metadata.acl.AclBindingFilter.ANY;
    }

    @Test
    void aCallerWithoutRightsOnTheClusterIsRefusedEveryEntry() throws Exception {
        CreateAclsResponse created = node.call(MALLORY, create(binding(ResourceType.TOPIC, "orders",
                PatternType.LITERAL, "User:mallory", AclOperation.ALL, AclPermissionType.ALLOW)));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), created.results().get(0).errorCode());
        assertInstanceOf(ClusterAuthorizationException.class,
                Errors.forCode(created.results().get(0).errorCode()).exception());

        DescribeAclsResponse described = node.call(MALLORY, new DescribeAclsRequest.Builder(AclBindingFilter.ANY)
                .build(ApiKeys.DESCRIBE_ACLS.latestVersion()));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), described.data().errorCode());
        assertEquals(List.of(), described.data().resources());

        DeleteAclsResponse deleted = node.call(MALLORY, delete(AclBindingFilter.ANY));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), deleted.filterResults().get(0).errorCode());
    }

    @Test
    void aNodeThatKnowsNoControllerAnswersNotControllerForEveryEntry() throws Exception {
        try (KafkaApisTestNode alone = new KafkaApisTestNode(false)) {
            CreateAclsResponse created = alone.call(ADMIN, create(binding(ResourceType.TOPIC, "orders",
                    PatternType.LITERAL, "User:alice", AclOperation.READ, AclPermissionType.ALLOW),
                    binding(ResourceType.TOPIC, "payments", PatternType.LITERAL, "User:alice", AclOperation.READ,
                            AclPermissionType.ALLOW)));
            assertEquals(List.of(Errors.NOT_CONTROLLER.code(), Errors.NOT_CONTROLLER.code()),
                    created.results().stream().map(r -> r.errorCode()).toList());
            assertInstanceOf(org.apache.kafka.common.errors.NotControllerException.class,
                    Errors.forCode(created.results().get(0).errorCode()).exception());
            DeleteAclsResponse deleted = alone.call(ADMIN, delete(AclBindingFilter.ANY));
            assertEquals(Errors.NOT_CONTROLLER.code(), deleted.filterResults().get(0).errorCode());
        }
    }
}
