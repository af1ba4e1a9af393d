package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.DescribeConfigsRequest;
import io.metaquorum.protocol.DescribeConfigsResource;
import io.metaquorum.protocol.DescribeConfigsResponse;
import io.metaquorum.protocol.DescribeConfigsResult;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's DescribeConfigs (api key 32) over {@link AdminRequests#describeConfigs}: answered from
 * this node's committed image, one result per resource in request order, each with its own
 * error (authorization before existence, as on the gRPC API). A request-level refusal of ours
 * (a limit, an image not loaded) has no place of its own in Kafka's answer, so every resource
 * carries it. Kafka's null key list means every config, as our empty one does; Kafka's empty
 * list means none, so those resources are still checked but answer no configs. A type Kafka
 * does not know refuses the whole request INVALID_REQUEST, as Kafka does; one it knows but we
 * serve no configs of answers as {@link ConfigResourceTypes#unsupportedAnswer} says.
 */
final class DescribeConfigsApi implements KafkaApiHandler {
    private final AdminRequests admin;

    DescribeConfigsApi(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DescribeConfigsRequestData data = ((org.apache.kafka.common.requests.DescribeConfigsRequest) request).data();
        for (DescribeConfigsRequestData.DescribeConfigsResource r : data.resources()) {
            if (ConfigResourceTypes.unknownToKafka(r.resourceType())) {
                reply.accept(request.getErrorResponse(new InvalidRequestException(
                        ConfigResourceTypes.unsupported(r.resourceType()))));
                return;
            }
        }
        DescribeConfigsRequest.Builder ours = DescribeConfigsRequest.newBuilder();
        for (DescribeConfigsRequestData.DescribeConfigsResource r : data.resources()) {
            Optional<ConfigResourceType> type = ConfigResourceTypes.ours(r.resourceType());
            if (type.isPresent()) {
                ours.addResources(DescribeConfigsResource.newBuilder().setResourceType(type.get())
                        .setResourceName(r.resourceName())
                        .addAllConfigurationKeys(r.configurationKeys() == null ? List.of() : r.configurationKeys()));
            }
        }
        DescribeConfigsResponse answer = ours.getResourcesCount() == 0 ? DescribeConfigsResponse.getDefaultInstance()
                : admin.describeConfigs(ours.build(), call.origin());
        ConfigEntries entries = new ConfigEntries(request.version(), data.includeSynonyms());
        reply.accept(new org.apache.kafka.common.requests.DescribeConfigsResponse(
                new DescribeConfigsResponseData().setResults(results(data, answer, entries, call))));
    }

    private List<DescribeConfigsResponseData.DescribeConfigsResult> results(DescribeConfigsRequestData data,
                                                                          DescribeConfigsResponse answer,
                                                                          ConfigEntries entries, KafkaCall call) {
        ErrorCode whole = answer.getHeader().getErrorCode();
        List<DescribeConfigsResponseData.DescribeConfigsResult> out = new ArrayList<>(data.resources().size());
        int next = 0;
        for (DescribeConfigsRequestData.DescribeConfigsResource r : data.resources()) {
            DescribeConfigsResponseData.DescribeConfigsResult result = new DescribeConfigsResponseData.DescribeConfigsResult()
                    .setResourceType(r.resourceType()).setResourceName(r.resourceName());
            out.add(result);
            if (ConfigResourceTypes.ours(r.resourceType()).isEmpty()) {
                Errors refusal = ConfigResourceTypes.unsupportedAnswer(r.resourceType(), r.resourceName(),
                        AclOperation.DESCRIBE_CONFIGS, admin, call.origin());
                result.setErrorCode(refusal.code())
                        .setErrorMessage(ConfigResourceTypes.unsupportedMessage(r.resourceType(), refusal));
            } else if (whole != ErrorCode.NONE || next >= answer.getResultsCount()) {
                ErrorCode code = whole != ErrorCode.NONE ? whole : ErrorCode.UNKNOWN_SERVER_ERROR;
                result.setErrorCode(WireErrors.code(code))
                        .setErrorMessage(WireErrors.message(code, answer.getHeader().getErrorMessage()));
            } else {
                DescribeConfigsResult one = answer.getResults(next++);
                result.setErrorCode(WireErrors.code(one.getErrorCode()))
                        .setErrorMessage(WireErrors.message(one.getErrorCode(), one.getErrorMessage()));
                boolean noneWanted = r.configurationKeys() != null && r.configurationKeys().isEmpty();
                if (one.getErrorCode() == ErrorCode.NONE && !noneWanted) {
                    List<DescribeConfigsResourceResult> configs = new ArrayList<>(one.getConfigsCount());
                    one.getConfigsList().forEach(c -> configs.add(entries.entry(one.getResourceType(), c)));
                    result.setConfigs(configs);
                }
            }
        }
        return out;
    }
}
