package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.AlterConfigsResource;
import io.metaquorum.protocol.AlterConfigsResourceResult;
import io.metaquorum.protocol.AlterableConfig;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;

/**
 * Kafka's IncrementalAlterConfigs (api key 44) over {@link AdminRequests#incrementalAlterConfigs}:
 * decided by the active controller (forwarded from any other node), answered once committed,
 * one result per resource in request order. Kafka's operation numbers are ours (SET 0, DELETE 1,
 * APPEND 2, SUBTRACT 3); as on the gRPC API only SET and DELETE of topic configs are served, and
 * an APPEND or SUBTRACT refuses the whole request at the edge (INVALID_REQUEST naming the field),
 * which Kafka's answer carries on every resource. A null value is an absent one. A resource of a
 * type we serve no configs of answers as {@link ConfigResourceTypes#unsupportedAnswer} says.
 */
final class IncrementalAlterConfigsApi implements KafkaApiHandler {
    private final AdminRequests admin;

    IncrementalAlterConfigsApi(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        IncrementalAlterConfigsRequestData data = ((IncrementalAlterConfigsRequest) request).data();
        io.metaquorum.protocol.IncrementalAlterConfigsRequest.Builder ours =
                io.metaquorum.protocol.IncrementalAlterConfigsRequest.newBuilder().setValidateOnly(data.validateOnly());
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource r : data.resources()) {
            Optional<ConfigResourceType> type = ConfigResourceTypes.ours(r.resourceType());
            if (type.isEmpty()) {
                continue;
            }
            AlterConfigsResource.Builder resource = AlterConfigsResource.newBuilder().setResourceType(type.get())
                    .setResourceName(r.resourceName());
            for (IncrementalAlterConfigsRequestData.AlterableConfig c : r.configs()) {
                AlterableConfig.Builder config = AlterableConfig.newBuilder().setName(c.name())
                        .setConfigOperationValue(c.configOperation());
                if (c.value() != null) {
                    config.setValue(c.value());
                }
                resource.addConfigs(config);
            }
            ours.addResources(resource);
        }
        if (ours.getResourcesCount() == 0) {
            reply.accept(response(data, io.metaquorum.protocol.IncrementalAlterConfigsResponse.getDefaultInstance(),
                    call));
            return;
        }
        admin.incrementalAlterConfigs(ours.build(), call.origin(), answer -> reply.accept(response(data, answer,
                call)));
    }

    private AbstractResponse response(IncrementalAlterConfigsRequestData data,
                                      io.metaquorum.protocol.IncrementalAlterConfigsResponse answer, KafkaCall call) {
        List<AlterConfigsResourceResponse> out = new ArrayList<>(data.resources().size());
        int next = 0;
        for (IncrementalAlterConfigsRequestData.AlterConfigsResource r : data.resources()) {
            AlterConfigsResourceResponse result = new AlterConfigsResourceResponse().setResourceType(r.resourceType())
                    .setResourceName(r.resourceName());
            out.add(result);
            if (ConfigResourceTypes.ours(r.resourceType()).isEmpty()) {
                Errors refusal = ConfigResourceTypes.unsupportedAnswer(r.resourceType(), r.resourceName(),
                        AclOperation.ALTER_CONFIGS, admin, call.origin());
                result.setErrorCode(refusal.code())
                        .setErrorMessage(ConfigResourceTypes.unsupportedMessage(r.resourceType(), refusal));
                continue;
            }
            ErrorCode code;
            String message;
            if (next < answer.getResultsCount()) {
                AlterConfigsResourceResult one = answer.getResults(next++);
                code = one.getErrorCode();
                message = one.getErrorMessage();
            } else {
                code = answer.getHeader().getErrorCode() == ErrorCode.NONE ? ErrorCode.UNKNOWN_SERVER_ERROR
                        : answer.getHeader().getErrorCode();
                message = answer.getHeader().getErrorMessage();
            }
            result.setErrorCode(WireErrors.code(code)).setErrorMessage(WireErrors.message(code, message));
        }
        return new IncrementalAlterConfigsResponse(new IncrementalAlterConfigsResponseData().setResponses(out));
    }
}
