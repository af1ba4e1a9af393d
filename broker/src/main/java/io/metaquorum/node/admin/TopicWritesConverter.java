package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.DeleteTopicResult;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsRequest;
import io.metaquorum.protocol.CreatePartitionsResponse;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DeleteTopicsRequest;
import io.metaquorum.protocol.DeleteTopicsResponse;
import io.metaquorum.protocol.TopicRef;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;

/** DeleteTopics and CreatePartitions between the wire and the controller's types. */
final class TopicWritesConverter {
    private TopicWritesConverter() {
    }

    static List<String> deleteNames(DeleteTopicsRequest request) {
        return request.getTopicsList().stream().filter(TopicRef::hasName).map(TopicRef::getName).toList();
    }

    static List<Uuid> deleteIds(DeleteTopicsRequest request) {
        return request.getTopicsList().stream().filter(TopicRef::hasTopicId).map(TopicRef::getTopicId).toList();
    }

    static DeleteTopicsResponse deletedToProto(List<DeleteTopicResult> results, int controllerId) {
        DeleteTopicsResponse.Builder out = DeleteTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(results.stream().map(DeleteTopicResult::error).toList(),
                        controllerId));
        for (DeleteTopicResult r : results) {
            out.addTopics(DeletableTopicResult.newBuilder().setName(r.name() == null ? "" : r.name())
                    .setTopicId(r.topicId() == null ? TopicIds.ZERO : r.topicId())
                    .setErrorCode(r.error().code()).setErrorMessage(r.error().message()));
        }
        return out.build();
    }

    static DeleteTopicsResponse failed(DeleteTopicsRequest request, ApiError error, int controllerId) {
        DeleteTopicsResponse.Builder out = DeleteTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET));
        for (TopicRef ref : request.getTopicsList()) {
            out.addTopics(DeletableTopicResult.newBuilder().setName(ref.hasName() ? ref.getName() : "")
                    .setTopicId(ref.hasTopicId() ? ref.getTopicId() : TopicIds.ZERO)
                    .setErrorCode(error.code()).setErrorMessage(error.message()));
        }
        return out.build();
    }

    /**
     * The wire lists the new partitions' assignments in order; the controller wants their ids,
     * which start at the topic's current count in {@code decisionImage} (the controller's own,
     * so the conversion runs on its thread).
     */
    static List<io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic> toController(
            CreatePartitionsRequest request, MetadataImage decisionImage) {
        List<io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic> out =
                new ArrayList<>(request.getTopicsCount());
        for (CreatePartitionsTopic t : request.getTopicsList()) {
            TopicImage topic = decisionImage.topics().topic(t.getName());
            int first = topic == null ? 0 : topic.partitionCount();
            List<PartitionAssignment> assignments = new ArrayList<>(t.getAssignmentsCount());
            for (int i = 0; i < t.getAssignmentsCount(); i++) {
                CreatePartitionsAssignment a = t.getAssignments(i);
                assignments.add(new PartitionAssignment(first + i, a.getBrokerIdsList()));
            }
            out.add(new io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic(
                    t.getName(), t.getCount(), assignments));
        }
        return out;
    }

    static CreatePartitionsResponse grownToProto(List<CreatePartitionsResult> results, int controllerId) {
        CreatePartitionsResponse.Builder out = CreatePartitionsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(results.stream().map(CreatePartitionsResult::error).toList(),
                        controllerId));
        for (CreatePartitionsResult r : results) {
            out.addTopics(result(r.name(), r.error()));
        }
        return out.build();
    }

    static CreatePartitionsResponse failed(CreatePartitionsRequest request, ApiError error, int controllerId) {
        CreatePartitionsResponse.Builder out = CreatePartitionsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET));
        for (CreatePartitionsTopic t : request.getTopicsList()) {
            out.addTopics(result(t.getName(), error));
        }
        return out.build();
    }

    private static CreatePartitionsTopicResult result(String name, ApiError error) {
        return CreatePartitionsTopicResult.newBuilder().setName(name).setErrorCode(error.code())
                .setErrorMessage(error.message()).build();
    }
}
