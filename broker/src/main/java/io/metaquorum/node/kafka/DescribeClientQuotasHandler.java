package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.node.admin.AdminRequests;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.requests.DescribeClientQuotasResponse;

/**
 * Kafka's DescribeClientQuotas. A metadata quorum serves no produce or fetch traffic, so no
 * client quota exists here and none can be set (AlterClientQuotas is not served): the answer
 * to a valid filter is the true one, no entry. It is served because Kafka's
 * {@code kafka-configs.sh --describe --entity-type users} asks it beside the users' SCRAM
 * credentials. As in Kafka it needs DESCRIBE_CONFIGS on the cluster, checked before the
 * filter, and a filter Kafka refuses is INVALID_REQUEST.
 */
final class DescribeClientQuotasHandler implements KafkaApiHandler {
    private static final List<String> ENTITY_TYPES = List.of("user", "client-id", "ip");
    private final AdminRequests admin;

    DescribeClientQuotasHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        Optional<ApiError> refused = admin.refusedOnCluster(call.origin(), AclOperation.DESCRIBE_CONFIGS);
        DescribeClientQuotasResponseData answer = new DescribeClientQuotasResponseData();
        if (refused.isPresent()) {
            answer.setErrorCode(WireErrors.code(refused.get().code()))
                    .setErrorMessage(WireErrors.message(refused.get().code(), refused.get().message()));
        } else {
            Optional<String> bad = badFilter(((DescribeClientQuotasRequest) request).data().components());
            if (bad.isPresent()) {
                answer.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(bad.get());
            } else {
                answer.setEntries(List.of());
            }
        }
        reply.accept(new DescribeClientQuotasResponse(answer));
    }

    /** Why Kafka refuses the filter, or empty when it is valid. */
    static Optional<String> badFilter(List<ComponentData> components) {
        Set<String> seen = new TreeSet<>();
        for (ComponentData component : components) {
            String type = component.entityType();
            if (!ENTITY_TYPES.contains(type)) {
                return Optional.of("Custom entity type '" + type + "' not supported");
            }
            if (!seen.add(type)) {
                return Optional.of("Duplicate " + type + " filter component entity type");
            }
            if (component.matchType() < 0 || component.matchType() > 2) {
                return Optional.of("Unknown match type " + component.matchType() + " for entity type " + type);
            }
        }
        if (seen.contains("ip") && seen.size() > 1) {
            return Optional.of("IP filter component should not be used with user or clientId filter component.");
        }
        return Optional.empty();
    }
}
