package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.DescribeAclsRequest;
import io.metaquorum.protocol.DescribeAclsResponse;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.message.DescribeAclsResponseData.AclDescription;
import org.apache.kafka.common.message.DescribeAclsResponseData.DescribeAclsResource;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's DescribeAcls (api key 29) over {@link AdminRequests#describeAcls}: DESCRIBE on the
 * cluster, answered from this node's committed image. Kafka groups the ACLs by resource
 * pattern (type, name, pattern type), each with its entries; ours come sorted by pattern then
 * entry, and are grouped here in that order. A filter with an UNKNOWN field, or a caller
 * without the right, is the request-level error, as in Kafka.
 */
final class DescribeAclsApi implements KafkaApiHandler {
    private final AdminRequests admin;

    /** A resource pattern, the key Kafka groups ACLs by. */
    private record Pattern(int type, String name, int patternType) {
    }

    DescribeAclsApi(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        org.apache.kafka.common.requests.DescribeAclsRequest kafka =
                (org.apache.kafka.common.requests.DescribeAclsRequest) request;
        DescribeAclsResponse answer = admin.describeAcls(DescribeAclsRequest.newBuilder()
                .setFilter(AclMessages.filter(kafka.data())).build(), call.origin());
        ErrorCode code = answer.getHeader().getErrorCode();
        DescribeAclsResponseData data = new DescribeAclsResponseData().setErrorCode(WireErrors.code(code))
                .setErrorMessage(WireErrors.message(code, answer.getHeader().getErrorMessage()))
                .setResources(grouped(answer.getAclsList()));
        reply.accept(new org.apache.kafka.common.requests.DescribeAclsResponse(data, request.version()));
    }

    private static List<DescribeAclsResource> grouped(List<DescribedAcl> acls) {
        Map<Pattern, DescribeAclsResource> byPattern = new LinkedHashMap<>();
        for (DescribedAcl acl : acls) {
            Pattern pattern = new Pattern(acl.getResourceType(), acl.getResourceName(), acl.getPatternType());
            byPattern.computeIfAbsent(pattern, p -> new DescribeAclsResource().setResourceType((byte) p.type())
                    .setResourceName(p.name()).setPatternType((byte) p.patternType())
                    .setAcls(new ArrayList<>())).acls().add(new AclDescription().setPrincipal(acl.getPrincipal())
                    .setHost(acl.getHost()).setOperation((byte) acl.getOperation())
                    .setPermissionType((byte) acl.getPermissionType()));
        }
        return new ArrayList<>(byPattern.values());
    }
}
