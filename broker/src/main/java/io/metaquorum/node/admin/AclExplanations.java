package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.image.AclEntry;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import io.metaquorum.protocol.ExplainAclResponse;
import io.metaquorum.metadata.authorizer.Decision;
import io.metaquorum.security.Caller;
import io.metaquorum.security.Principal;
import java.util.Optional;

/**
 * ExplainAcl: the decision this node would make for one question, and the rule that made it
 * (super user, the deciding ACL with its id, or the default), from its committed image.
 */
final class AclExplanations {
    private AclExplanations() {
    }

    static ExplainAclResponse explain(ExplainAclRequest request, NodeAccess access, MetadataImage image,
                                      int controllerId) {
        Optional<String> bad = invalidField(request);
        if (bad.isPresent()) {
            return ExplainAclResponse.newBuilder().setHeader(ResponseHeaders.header(
                    ApiError.of(ErrorCode.INVALID_REQUEST, bad.get()), controllerId, image.lastCommittedOffset()))
                    .build();
        }
        Caller caller = new Caller(Principal.parse(request.getPrincipal()), request.getHost());
        Decision decision = access.decide(image, caller, AclOperation.fromCode(request.getOperation()).orElseThrow(),
                ResourceType.fromCode(request.getResourceType()).orElseThrow(), request.getResourceName());
        ExplainAclResponse.Builder out = ExplainAclResponse.newBuilder()
                .setHeader(ResponseHeaders.ok(controllerId, image.lastCommittedOffset()))
                .setAllowed(decision.allowed()).setRule(decision.rule().name()).setExplanation(decision.explain())
                .setAuthorizerEnabled(access.isEnabled());
        if (decision.acl() != null) {
            out.setAcl(described(decision.acl()));
        }
        return out.build();
    }

    private static Optional<String> invalidField(ExplainAclRequest request) {
        if (request.getPrincipal().indexOf(':') <= 0) {
            return Optional.of("principal must be TYPE:NAME, e.g. User:alice; got '" + request.getPrincipal() + "'.");
        }
        if (request.getHost().isEmpty()) {
            return Optional.of("host must be an address, e.g. 127.0.0.1.");
        }
        Optional<AclOperation> operation = AclOperation.fromCode(request.getOperation());
        if (operation.isEmpty() || operation.get() == AclOperation.UNKNOWN || operation.get() == AclOperation.ANY) {
            return Optional.of("operation " + request.getOperation() + " is not an operation to ask about.");
        }
        Optional<ResourceType> type = ResourceType.fromCode(request.getResourceType());
        if (type.isEmpty() || type.get() == ResourceType.UNKNOWN || type.get() == ResourceType.ANY) {
            return Optional.of("resource_type " + request.getResourceType() + " is not a resource type to ask about.");
        }
        if (request.getResourceName().isEmpty()) {
            return Optional.of("resource_name must not be empty.");
        }
        return Optional.empty();
    }

    private static DescribedAcl described(AclEntry acl) {
        return DescribedAcl.newBuilder().setId(acl.id().toUuid()).setResourceType(acl.resourceType().code())
                .setResourceName(acl.resourceName()).setPatternType(acl.patternType().code())
                .setPrincipal(acl.principal()).setHost(acl.host()).setOperation(acl.operation().code())
                .setPermissionType(acl.permission().code()).build();
    }
}
