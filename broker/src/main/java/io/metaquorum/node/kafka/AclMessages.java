package io.metaquorum.node.kafka;

import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.DescribedAcl;
import org.apache.kafka.common.message.CreateAclsRequestData.AclCreation;
import org.apache.kafka.common.message.DeleteAclsRequestData.DeleteAclsFilter;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import org.apache.kafka.common.message.DescribeAclsRequestData;
import org.apache.kafka.common.protocol.Errors;

/**
 * Kafka's ACL fields against ours. The codes (resource type, pattern type, operation,
 * permission) are Kafka's numbers on both sides, so they pass as they are, UNKNOWN and codes
 * Kafka does not define included: the controller and the filter validation answer those as
 * the gRPC API does. A null name, principal or host in a filter is an absent one (matches
 * everything).
 */
final class AclMessages {
    private AclMessages() {
    }

    static io.metaquorum.protocol.AclCreation creation(AclCreation kafka) {
        return io.metaquorum.protocol.AclCreation.newBuilder().setResourceType(kafka.resourceType())
                .setResourceName(kafka.resourceName()).setPatternType(kafka.resourcePatternType())
                .setPrincipal(kafka.principal()).setHost(kafka.host()).setOperation(kafka.operation())
                .setPermissionType(kafka.permissionType()).build();
    }

    static AclFilter filter(DescribeAclsRequestData kafka) {
        return filter(kafka.resourceTypeFilter(), kafka.resourceNameFilter(), kafka.patternTypeFilter(),
                kafka.principalFilter(), kafka.hostFilter(), kafka.operation(), kafka.permissionType());
    }

    static AclFilter filter(DeleteAclsFilter kafka) {
        return filter(kafka.resourceTypeFilter(), kafka.resourceNameFilter(), kafka.patternTypeFilter(),
                kafka.principalFilter(), kafka.hostFilter(), kafka.operation(), kafka.permissionType());
    }

    private static AclFilter filter(byte resourceType, String name, byte patternType, String principal, String host,
                                    byte operation, byte permission) {
        AclFilter.Builder out = AclFilter.newBuilder().setResourceType(resourceType).setPatternType(patternType)
                .setOperation(operation).setPermissionType(permission);
        if (name != null) {
            out.setResourceName(name);
        }
        if (principal != null) {
            out.setPrincipal(principal);
        }
        if (host != null) {
            out.setHost(host);
        }
        return out.build();
    }

    /** An ACL a DeleteAcls filter removed, as Kafka lists it (each match has its own error: none). */
    static DeleteAclsMatchingAcl matching(DescribedAcl acl) {
        return new DeleteAclsMatchingAcl().setErrorCode(Errors.NONE.code()).setErrorMessage(null)
                .setResourceType((byte) acl.getResourceType()).setResourceName(acl.getResourceName())
                .setPatternType((byte) acl.getPatternType()).setPrincipal(acl.getPrincipal()).setHost(acl.getHost())
                .setOperation((byte) acl.getOperation()).setPermissionType((byte) acl.getPermissionType());
    }
}
