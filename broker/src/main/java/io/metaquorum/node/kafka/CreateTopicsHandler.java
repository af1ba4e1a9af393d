package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.protocol.DescribedConfig;
import io.metaquorum.protocol.ErrorCode;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's CreateTopics over our CreateTopics, decided by the active controller (forwarded there
 * when this node is not it): -1 partitions or replication factor takes the controller's default,
 * as an absent one does. One result per distinct name, with Kafka's code and our message; from
 * version 5 the partition count, replication factor and configs of what was created (or would
 * be, under validate_only), and the config error when the caller may create the topic but not
 * see its configs; from version 7 the topic id. A request refused whole (an edge check, no
 * controller reachable) gives every name the refusal, since Kafka's response has no error of its
 * own.
 */
final class CreateTopicsHandler implements KafkaApiHandler {
    /** Kafka's "use the controller's default" for a count or a replication factor. */
    private static final int DEFAULT = -1;

    private final AdminRequests admin;

    CreateTopicsHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        CreateTopicsRequestData data = ((org.apache.kafka.common.requests.CreateTopicsRequest) request).data();
        short version = request.version();
        CreateTopicsRequest ours = toOurs(data);
        admin.createTopics(ours, call.origin(), response -> reply.accept(
                new org.apache.kafka.common.requests.CreateTopicsResponse(toKafka(response, ours, version))));
    }

    static CreateTopicsRequest toOurs(CreateTopicsRequestData data) {
        CreateTopicsRequest.Builder out = CreateTopicsRequest.newBuilder().setTimeoutMs(data.timeoutMs())
                .setValidateOnly(data.validateOnly());
        for (CreateTopicsRequestData.CreatableTopic topic : data.topics()) {
            CreatableTopic.Builder t = CreatableTopic.newBuilder().setName(topic.name());
            if (topic.numPartitions() != DEFAULT) {
                t.setNumPartitions(topic.numPartitions());
            }
            if (topic.replicationFactor() != DEFAULT) {
                t.setReplicationFactor(topic.replicationFactor());
            }
            for (CreateTopicsRequestData.CreatableReplicaAssignment a : topic.assignments()) {
                t.addAssignments(CreatableReplicaAssignment.newBuilder().setPartitionIndex(a.partitionIndex())
                        .addAllBrokerIds(a.brokerIds()));
            }
            for (CreateTopicsRequestData.CreatableTopicConfig c : topic.configs()) {
                CreatableTopicConfig.Builder config = CreatableTopicConfig.newBuilder().setName(c.name());
                if (c.value() != null) {
                    config.setValue(c.value());
                }
                t.addConfigs(config);
            }
            out.addTopics(t);
        }
        return out.build();
    }

    static CreateTopicsResponseData toKafka(CreateTopicsResponse response, CreateTopicsRequest request,
                                            short version) {
        CreateTopicsResponseData out = new CreateTopicsResponseData();
        ErrorCode failed = response.getHeader().getErrorCode();
        if (failed != ErrorCode.NONE && response.getTopicsCount() == 0) {
            Set<String> names = new LinkedHashSet<>();
            request.getTopicsList().forEach(t -> names.add(t.getName()));
            for (String name : names) {
                out.topics().add(new CreateTopicsResponseData.CreatableTopicResult().setName(name)
                        .setErrorCode(WireErrors.code(failed))
                        .setErrorMessage(WireValues.message(failed, response.getHeader().getErrorMessage())));
            }
            return out;
        }
        for (CreatableTopicResult r : response.getTopicsList()) {
            out.topics().add(result(r, version));
        }
        return out;
    }

    private static CreateTopicsResponseData.CreatableTopicResult result(CreatableTopicResult r, short version) {
        CreateTopicsResponseData.CreatableTopicResult out = new CreateTopicsResponseData.CreatableTopicResult()
                .setName(r.getName()).setErrorCode(WireErrors.code(r.getErrorCode()))
                .setErrorMessage(WireValues.message(r.getErrorCode(), r.getErrorMessage()));
        if (version >= 7) {
            out.setTopicId(WireValues.uuid(r.getTopicId()));
        }
        if (version < 5) {
            return out;
        }
        out.setNumPartitions(r.getNumPartitions()).setReplicationFactor((short) r.getReplicationFactor())
                .setTopicConfigErrorCode(WireErrors.code(r.getTopicConfigErrorCode()));
        if (r.getErrorCode() == ErrorCode.NONE) {
            for (DescribedConfig c : r.getConfigsList()) {
                out.configs().add(new CreatableTopicConfigs().setName(c.getName())
                        .setValue(c.hasValue() ? c.getValue() : null).setReadOnly(c.getReadOnly())
                        .setConfigSource((byte) c.getConfigSource().getNumber()).setIsSensitive(c.getIsSensitive()));
            }
        }
        return out;
    }
}
