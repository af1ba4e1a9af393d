package io.metaquorum.node.kafka;

import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.TopicRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;

/**
 * Kafka's DeleteTopics over ours, decided by the active controller: by name up to version 5,
 * by name or by id from version 6. An entry of version 6 that gives both a name and an id, or
 * neither, is INVALID_REQUEST on its own (our request names a topic one way); the others go on.
 * Results carry a message from version 5, the id (and a null name for a topic asked by an id
 * no topic has) from version 6. A request refused whole gives every entry the refusal.
 */
final class DeleteTopicsHandler implements KafkaApiHandler {
    private static final short TOPIC_IDS_VERSION = 6;

    private final AdminRequests admin;

    DeleteTopicsHandler(AdminRequests admin) {
        this.admin = admin;
    }

    @Override
    public void handle(KafkaCall call, AbstractRequest request, Consumer<AbstractResponse> reply) {
        DeleteTopicsRequestData data = ((org.apache.kafka.common.requests.DeleteTopicsRequest) request).data();
        short version = request.version();
        DeleteTopicsResponseData out = new DeleteTopicsResponseData();
        DeleteTopicsRequest.Builder ours = DeleteTopicsRequest.newBuilder().setTimeoutMs(data.timeoutMs());
        if (version < TOPIC_IDS_VERSION) {
            data.topicNames().forEach(name -> ours.addTopics(TopicRef.newBuilder().setName(name)));
        } else {
            for (DeleteTopicState topic : data.topics()) {
                boolean named = topic.name() != null;
                boolean identified = !topic.topicId().equals(Uuid.ZERO_UUID);
                if (named == identified) {
                    out.responses().add(new DeletableTopicResult().setName(topic.name()).setTopicId(topic.topicId())
                            .setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(named
                                    ? "Give a topic's name or its id, not both."
                                    : "Give a topic's name or its id; this entry has neither."));
                } else if (named) {
                    ours.addTopics(TopicRef.newBuilder().setName(topic.name()));
                } else {
                    ours.addTopics(TopicRef.newBuilder().setTopicId(WireValues.uuid(topic.topicId())));
                }
            }
        }
        if (ours.getTopicsCount() == 0) {
            reply.accept(new org.apache.kafka.common.requests.DeleteTopicsResponse(out));
            return;
        }
        DeleteTopicsRequest asked = ours.build();
        admin.deleteTopics(asked, call.origin(), response -> {
            results(response, asked, version).forEach(out.responses()::add);
            reply.accept(new org.apache.kafka.common.requests.DeleteTopicsResponse(out));
        });
    }

    static List<DeletableTopicResult> results(DeleteTopicsResponse response, DeleteTopicsRequest request,
                                              short version) {
        List<DeletableTopicResult> out = new ArrayList<>();
        ErrorCode failed = response.getHeader().getErrorCode();
        if (failed != ErrorCode.NONE && response.getTopicsCount() == 0) {
            String message = response.getHeader().getErrorMessage();
            for (TopicRef ref : request.getTopicsList()) {
                out.add(result(ref.hasName() ? ref.getName() : "", ref.hasTopicId() ? ref.getTopicId() : null,
                        failed, message, version));
            }
            return out;
        }
        for (io.metaquorum.protocol.DeletableTopicResult r : response.getTopicsList()) {
            out.add(result(r.getName(), r.getTopicId(), r.getErrorCode(), r.getErrorMessage(), version));
        }
        return out;
    }

    private static DeletableTopicResult result(String name, io.metaquorum.protocol.Uuid id, ErrorCode error,
                                               String message, short version) {
        DeletableTopicResult out = new DeletableTopicResult().setErrorCode(WireErrors.code(error));
        if (version >= TOPIC_IDS_VERSION) {
            out.setName(WireValues.name(name)).setTopicId(id == null ? Uuid.ZERO_UUID : WireValues.uuid(id));
        } else {
            out.setName(name);
        }
        if (version >= 5) {
            out.setErrorMessage(WireValues.message(error, message));
        }
        return out;
    }
}
