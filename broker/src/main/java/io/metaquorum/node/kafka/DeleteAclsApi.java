package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.DeleteAclsResponse;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import org.apache.kafka.common.message.DeleteAclsResponseData.DeleteAclsMatchingAcl;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DeleteAclsRequest;

/**
 * Kafka's DeleteAcls (api key 31) over {@link AdminRequests#deleteAcls}: ALTER on the cluster,
 * decided by the active controller, answered once committed, one result per filter in request
 * order with the ACLs it removed (an ACL two filters match is listed under both). Filters that
 * together match more than one request may delete are refused whole, each INVALID_REQUEST
 * naming the limit, as on the gRPC API. The commit offset is dropped, for the reason
 * {@link CreateAclsApi} gives.
 */
final class DeleteAclsApi implements KafkaApiHandler {
    private final AdminRequests admin;

    DeleteAclsApi(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DeleteAclsRequestData data = ((DeleteAclsRequest) request).data();
        io.metaquorum.protocol.DeleteAclsRequest.Builder ours = io.metaquorum.protocol.DeleteAclsRequest.newBuilder();
        data.filters().forEach(f -> ours.addFilters(AclMessages.filter(f)));
        admin.deleteAcls(ours.build(), call.origin(), answer -> reply.accept(response(data, answer, request.version())));
    }

    private static AbstractResponse response(DeleteAclsRequestData data, DeleteAclsResponse answer, short version) {
        List<DeleteAclsFilterResult> out = new ArrayList<>(data.filters().size());
        for (int i = 0; i < data.filters().size(); i++) {
            DeleteAclsFilterResult result = new DeleteAclsFilterResult();
            if (i < answer.getFilterResultsCount()) {
                io.metaquorum.protocol.DeleteAclsFilterResult one = answer.getFilterResults(i);
                List<DeleteAclsMatchingAcl> matching = new ArrayList<>(one.getMatchingAclsCount());
                one.getMatchingAclsList().forEach(acl -> matching.add(AclMessages.matching(acl)));
                result.setErrorCode(WireErrors.code(one.getErrorCode()))
                        .setErrorMessage(WireErrors.message(one.getErrorCode(), one.getErrorMessage()))
                        .setMatchingAcls(matching);
            } else {
                ErrorCode code = answer.getHeader().getErrorCode() == ErrorCode.NONE ? ErrorCode.UNKNOWN_SERVER_ERROR
                        : answer.getHeader().getErrorCode();
                result.setErrorCode(WireErrors.code(code))
                        .setErrorMessage(WireErrors.message(code, answer.getHeader().getErrorMessage()));
            }
            out.add(result);
        }
        return new org.apache.kafka.common.requests.DeleteAclsResponse(
                new DeleteAclsResponseData().setFilterResults(out), version);
    }
}
