package io.metaquorum.server.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.node.admin.RequestLimits;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ACL RPCs over gRPC: writes sent to node 2, a standby that forwards them to node 1, the
 * active controller; reads answered by node 1 from its own committed image.
 */
class AclsEndpointTest {
    private AdminTestNode controller;
    private AdminTestNode standby;

    @BeforeEach
    void start() throws Exception {
        controller = new AdminTestNode(1);
        standby = new AdminTestNode(2);
        AdminTestNode.serveActiveAndStandby(controller, standby);
    }

    @AfterEach
    void stop() throws Exception {
        standby.close();
        controller.close();
    }

    private static AclCreation read(String topic, String principal) {
        return AclCreation.newBuilder().setResourceType(ResourceType.TOPIC.code()).setResourceName(topic)
                .setPatternType(PatternType.LITERAL.code()).setPrincipal(principal).setHost("*")
                .setOperation(AclOperation.READ.code()).setPermissionType(PermissionType.ALLOW.code()).build();
    }

    private static AclFilter matching(String topic) {
        return AclFilter.newBuilder().setResourceType(ResourceType.TOPIC.code()).setResourceName(topic)
                .setPatternType(PatternType.MATCH.code()).setOperation(AclOperation.ANY.code())
                .setPermissionType(PermissionType.ANY.code()).build();
    }

    private CreateAclsResponse createThroughTheStandby(AclCreation... creations) {
        return standby.admin().createAcls(CreateAclsRequest.newBuilder().addAllCreations(List.of(creations)).build());
    }

    private DescribeAclsResponse describeOnTheController(AclFilter filter) {
        return controller.admin().describeAcls(DescribeAclsRequest.newBuilder().setFilter(filter).build());
    }

    @Test
    void aForwardedCreateIsDecidedByTheControllerAndReadBackAtItsCommitOffset() {
        CreateAclsResponse created = createThroughTheStandby(read("orders", "User:alice"),
                AclCreation.newBuilder(read("orders", "User:bob")).setOperation(AclOperation.ANY.code()).build());
        assertEquals(ErrorCode.NONE, created.getHeader().getErrorCode(), created.getHeader().getErrorMessage());
        assertEquals(1, created.getHeader().getControllerId());
        assertEquals(ErrorCode.NONE, created.getResults(0).getErrorCode(), created.getResults(0).getErrorMessage());
        assertEquals(ErrorCode.INVALID_REQUEST, created.getResults(1).getErrorCode());
        assertTrue(created.getResults(1).getErrorMessage().contains("operation ANY"));
        assertTrue(created.getCommitOffset() >= 0);

        DescribeAclsResponse described = describeOnTheController(matching("orders"));
        assertEquals(ErrorCode.NONE, described.getHeader().getErrorCode());
        assertTrue(described.getHeader().getMetadataOffset() >= created.getCommitOffset());
        assertEquals(1, described.getAclsCount());
        DescribedAcl acl = described.getAcls(0);
        assertEquals("User:alice", acl.getPrincipal());
        assertEquals(AclOperation.READ.code(), acl.getOperation());

        CreateAclsResponse again = createThroughTheStandby(read("orders", "User:alice"));
        assertEquals(ErrorCode.NONE, again.getResults(0).getErrorCode());
        assertEquals(1, describeOnTheController(matching("orders")).getAclsCount(), "an identical ACL adds nothing");
    }

    @Test
    void aForwardedDeleteRemovesWhatItsFiltersMatchAndSaysWhat() {
        createThroughTheStandby(read("orders", "User:alice"), read("payments", "User:alice"));
        DeleteAclsResponse deleted = standby.admin().deleteAcls(DeleteAclsRequest.newBuilder()
                .addFilters(matching("orders")).build());
        assertEquals(ErrorCode.NONE, deleted.getHeader().getErrorCode(), deleted.getHeader().getErrorMessage());
        assertEquals(ErrorCode.NONE, deleted.getFilterResults(0).getErrorCode());
        assertEquals(List.of("orders"), deleted.getFilterResults(0).getMatchingAclsList().stream()
                .map(DescribedAcl::getResourceName).toList());
        DescribeAclsResponse left = describeOnTheController(AclFilter.newBuilder()
                .setResourceType(ResourceType.ANY.code()).setPatternType(PatternType.ANY.code())
                .setOperation(AclOperation.ANY.code()).setPermissionType(PermissionType.ANY.code()).build());
        assertTrue(left.getHeader().getMetadataOffset() >= deleted.getCommitOffset());
        assertEquals(List.of("payments"), left.getAclsList().stream().map(DescribedAcl::getResourceName).toList());
    }

    @Test
    void aDescribeFilterWithAnUnknownFieldOrAnOversizedStringIsAnInvalidRequest() {
        DescribeAclsResponse unknown = describeOnTheController(AclFilter.getDefaultInstance());
        assertEquals(ErrorCode.INVALID_REQUEST, unknown.getHeader().getErrorCode());
        assertEquals("The filter's resource type is UNKNOWN; ANY matches every one.",
                unknown.getHeader().getErrorMessage());
        DescribeAclsResponse huge = describeOnTheController(AclFilter.newBuilder(matching("t"))
                .setPrincipal("x".repeat(RequestLimits.STRING_CHARS_MAX + 1)).build());
        assertEquals(ErrorCode.INVALID_REQUEST, huge.getHeader().getErrorCode());
        assertTrue(huge.getHeader().getErrorMessage().startsWith("filter.principal has "),
                huge.getHeader().getErrorMessage());
    }

    @Test
    void aStandbyThatKnowsNoControllerAnswersNotControllerForEveryCreation() throws Exception {
        try (AdminTestNode alone = new AdminTestNode(3)) {
            alone.serve(java.util.Map.of());
            CreateAclsResponse response = alone.admin().createAcls(CreateAclsRequest.newBuilder()
                    .addCreations(read("t", "User:a")).build());
            assertEquals(ErrorCode.NOT_CONTROLLER, response.getHeader().getErrorCode());
            assertEquals(ErrorCode.NOT_CONTROLLER, response.getResults(0).getErrorCode());
            assertEquals(-1, response.getCommitOffset());
        }
    }
}
