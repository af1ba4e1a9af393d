package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.CreateAclsResponse;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.message.CreateAclsResponseData.AclCreationResult;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.CreateAclsRequest;

/**
 * Kafka's CreateAcls (api key 30) over {@link AdminRequests#createAcls}: ALTER on the cluster,
 * decided by the active controller (forwarded from any other node), answered once committed,
 * one result per creation in request order.
 *
 * <p>The commit offset our answer carries is dropped: Kafka's response has no field for it and
 * Kafka's client would not send it back. What a Kafka client gets is what Kafka gives it: the
 * ACL is committed when the answer comes, and each node enforces it once its own image has
 * replayed that far, which is soon but not at once (Kafka's ACL changes are eventually
 * consistent the same way, KAFKA-14535). A client that needs to read its own ACL writes on any
 * node uses the gRPC API, whose client sends the offset back (docs/security.md). Waiting here
 * until this node's image holds the offset would help only the next call to this same node,
 * and Kafka's admin client picks its node per call; AdminRequests offers no such wait either.
 */
final class CreateAclsApi implements KafkaApiHandler {
    private final AdminRequests admin;

    CreateAclsApi(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        CreateAclsRequestData data = ((CreateAclsRequest) request).data();
        io.metaquorum.protocol.CreateAclsRequest.Builder ours = io.metaquorum.protocol.CreateAclsRequest.newBuilder();
        data.creations().forEach(c -> ours.addCreations(AclMessages.creation(c)));
        admin.createAcls(ours.build(), call.origin(), answer -> reply.accept(response(data, answer)));
    }

    private static AbstractResponse response(CreateAclsRequestData data, CreateAclsResponse answer) {
        List<AclCreationResult> out = new ArrayList<>(data.creations().size());
        for (int i = 0; i < data.creations().size(); i++) {
            ErrorCode code;
            String message;
            if (i < answer.getResultsCount()) {
                io.metaquorum.protocol.AclCreationResult one = answer.getResults(i);
                code = one.getErrorCode();
                message = one.getErrorMessage();
            } else {
                code = answer.getHeader().getErrorCode() == ErrorCode.NONE ? ErrorCode.UNKNOWN_SERVER_ERROR
                        : answer.getHeader().getErrorCode();
                message = answer.getHeader().getErrorMessage();
            }
            out.add(new AclCreationResult().setErrorCode(WireErrors.code(code))
                    .setErrorMessage(WireErrors.message(code, message)));
        }
        return new org.apache.kafka.common.requests.CreateAclsResponse(new CreateAclsResponseData().setResults(out));
    }
}
