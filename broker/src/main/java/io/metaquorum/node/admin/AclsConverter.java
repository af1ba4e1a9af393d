package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AccessControlEntry;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclBindingFilter;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourcePattern;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.metadata.controller.AclControlManager;
import io.metaquorum.metadata.controller.AclControlManager.CreateAclsResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsResult;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclCreationResult;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.CreateAclsRequest;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.DeleteAclsFilterResult;
import io.metaquorum.protocol.DeleteAclsRequest;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import java.util.List;
import java.util.Optional;

/**
 * CreateAcls and DeleteAcls (through the controller) and DescribeAcls (from an image) between
 * the wire and the ACL types. A code Kafka does not define reads as UNKNOWN, which the
 * controller refuses in an ACL and a filter alike.
 */
final class AclsConverter {
    private AclsConverter() {
    }

    static List<AclBinding> toBindings(CreateAclsRequest request) {
        return request.getCreationsList().stream().map(AclsConverter::toBinding).toList();
    }

    private static AclBinding toBinding(AclCreation c) {
        return new AclBinding(new ResourcePattern(resourceType(c.getResourceType()), c.getResourceName(),
                patternType(c.getPatternType())), new AccessControlEntry(c.getPrincipal(), c.getHost(),
                operation(c.getOperation()), permission(c.getPermissionType())));
    }

    static List<AclBindingFilter> toFilters(DeleteAclsRequest request) {
        return request.getFiltersList().stream().map(AclsConverter::toFilter).toList();
    }

    static AclBindingFilter toFilter(AclFilter f) {
        return new AclBindingFilter(resourceType(f.getResourceType()),
                f.hasResourceName() ? Optional.of(f.getResourceName()) : Optional.empty(),
                patternType(f.getPatternType()), f.hasPrincipal() ? Optional.of(f.getPrincipal()) : Optional.empty(),
                f.hasHost() ? Optional.of(f.getHost()) : Optional.empty(), operation(f.getOperation()),
                permission(f.getPermissionType()));
    }

    private static ResourceType resourceType(int code) {
        return ResourceType.fromCode(code).orElse(ResourceType.UNKNOWN);
    }

    private static PatternType patternType(int code) {
        return PatternType.fromCode(code).orElse(PatternType.UNKNOWN);
    }

    private static AclOperation operation(int code) {
        return AclOperation.fromCode(code).orElse(AclOperation.UNKNOWN);
    }

    private static PermissionType permission(int code) {
        return PermissionType.fromCode(code).orElse(PermissionType.UNKNOWN);
    }

    static DescribedAcl described(StoredAcl acl) {
        ResourcePattern p = acl.binding().pattern();
        AccessControlEntry e = acl.binding().entry();
        return DescribedAcl.newBuilder().setId(acl.id()).setResourceType(p.resourceType().code())
                .setResourceName(p.name()).setPatternType(p.patternType().code()).setPrincipal(e.principal())
                .setHost(e.host()).setOperation(e.operation().code()).setPermissionType(e.permissionType().code())
                .build();
    }

    /** The ACLs of {@code image} the request's filter matches; a filter with an UNKNOWN field is INVALID_REQUEST. */
    static DescribeAclsResponse describe(DescribeAclsRequest request, MetadataImage image, int controllerId) {
        AclBindingFilter filter = toFilter(request.getFilter());
        Optional<String> unknown = filter.unknownField();
        if (unknown.isPresent()) {
            return DescribeAclsResponse.newBuilder().setHeader(ResponseHeaders.header(ApiError.of(
                    ErrorCode.INVALID_REQUEST, "The filter's " + unknown.get() + " is UNKNOWN; ANY matches every one."),
                    controllerId, image.lastCommittedOffset())).build();
        }
        DescribeAclsResponse.Builder out = DescribeAclsResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()));
        image.acls().matching(filter).forEach(acl -> out.addAcls(described(acl)));
        return out.build();
    }

    static CreateAclsResponse createdToProto(CreateAclsResult result, int controllerId) {
        CreateAclsResponse.Builder out = CreateAclsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(result.results(), controllerId))
                .setCommitOffset(result.commitOffset());
        result.results().forEach(error -> out.addResults(creationResult(error)));
        return out.build();
    }

    static CreateAclsResponse createFailed(CreateAclsRequest request, ApiError error, int controllerId) {
        CreateAclsResponse.Builder out = CreateAclsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET))
                .setCommitOffset(ResponseHeaders.NO_OFFSET);
        request.getCreationsList().forEach(c -> out.addResults(creationResult(error)));
        return out.build();
    }

    private static AclCreationResult creationResult(ApiError error) {
        return AclCreationResult.newBuilder().setErrorCode(error.code()).setErrorMessage(error.message()).build();
    }

    static DeleteAclsResponse deletedToProto(DeleteAclsResult result, int controllerId) {
        List<ApiError> errors = result.results().stream().map(AclControlManager.DeleteAclsFilterResult::error)
                .toList();
        DeleteAclsResponse.Builder out = DeleteAclsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(errors, controllerId))
                .setCommitOffset(result.commitOffset());
        for (AclControlManager.DeleteAclsFilterResult filter : result.results()) {
            DeleteAclsFilterResult.Builder one = filterResult(filter.error());
            filter.deleted().forEach(acl -> one.addMatchingAcls(described(acl)));
            out.addFilterResults(one);
        }
        return out.build();
    }

    static DeleteAclsResponse deleteFailed(DeleteAclsRequest request, ApiError error, int controllerId) {
        DeleteAclsResponse.Builder out = DeleteAclsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET))
                .setCommitOffset(ResponseHeaders.NO_OFFSET);
        request.getFiltersList().forEach(f -> out.addFilterResults(filterResult(error)));
        return out.build();
    }

    private static DeleteAclsFilterResult.Builder filterResult(ApiError error) {
        return DeleteAclsFilterResult.newBuilder().setErrorCode(error.code())
                .setErrorMessage(error.message());
    }
}
