package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.ErrorCode;
import java.util.function.Consumer;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's CreatePartitions over ours, decided by the active controller: grow each topic to
 * {@code count}, placed automatically (a null assignment list) or as assigned, or only checked
 * under validate_only. A request refused whole gives every topic the refusal.
 */
final class CreatePartitionsHandler implements KafkaApiHandler {
    private final AdminRequests admin;

    CreatePartitionsHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        CreatePartitionsRequestData data = ((org.apache.kafka.common.requests.CreatePartitionsRequest) request).data();
        CreatePartitionsRequest.Builder ours = CreatePartitionsRequest.newBuilder().setTimeoutMs(data.timeoutMs())
                .setValidateOnly(data.validateOnly());
        for (CreatePartitionsRequestData.CreatePartitionsTopic topic : data.topics()) {
            CreatePartitionsTopic.Builder t = CreatePartitionsTopic.newBuilder().setName(topic.name())
                    .setCount(topic.count());
            if (topic.assignments() != null) {
                for (CreatePartitionsRequestData.CreatePartitionsAssignment a : topic.assignments()) {
                    t.addAssignments(CreatePartitionsAssignment.newBuilder().addAllBrokerIds(a.brokerIds()));
                }
            }
            ours.addTopics(t);
        }
        CreatePartitionsRequest asked = ours.build();
        admin.createPartitions(asked, call.origin(), response -> reply.accept(
                new org.apache.kafka.common.requests.CreatePartitionsResponse(toKafka(response, asked))));
    }

    static CreatePartitionsResponseData toKafka(CreatePartitionsResponse response, CreatePartitionsRequest request) {
        CreatePartitionsResponseData out = new CreatePartitionsResponseData();
        ErrorCode failed = response.getHeader().getErrorCode();
        if (failed != ErrorCode.NONE && response.getTopicsCount() == 0) {
            for (CreatePartitionsTopic topic : request.getTopicsList()) {
                out.results().add(result(topic.getName(), failed, response.getHeader().getErrorMessage()));
            }
            return out;
        }
        for (io.metaquorum.protocol.CreatePartitionsTopicResult r : response.getTopicsList()) {
            out.results().add(result(r.getName(), r.getErrorCode(), r.getErrorMessage()));
        }
        return out;
    }

    private static CreatePartitionsTopicResult result(String name, ErrorCode error, String message) {
        return new CreatePartitionsTopicResult().setName(name).setErrorCode(WireErrors.code(error))
                .setErrorMessage(WireValues.message(error, message));
    }
}
