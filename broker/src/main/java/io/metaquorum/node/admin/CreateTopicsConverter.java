package io.metaquorum.node.admin;

import io.metaquorum.metadata.controller.ApiError;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreateTopicsRequest;
import io.metaquorum.protocol.CreateTopicsResponse;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** CreateTopics between the wire ({@code admin.proto}) and the controller's Java types. */
final class CreateTopicsConverter {
    private static final int DEFAULT = io.metaquorum.metadata.controller.CreateTopicsRequest.DEFAULT;

    private CreateTopicsConverter() {
    }

    static io.metaquorum.metadata.controller.CreateTopicsRequest toController(CreateTopicsRequest request) {
        List<Topic> topics = new ArrayList<>(request.getTopicsCount());
        for (CreatableTopic t : request.getTopicsList()) {
            List<PartitionAssignment> assignments = new ArrayList<>(t.getAssignmentsCount());
            for (CreatableReplicaAssignment a : t.getAssignmentsList()) {
                assignments.add(new PartitionAssignment(a.getPartitionIndex(), a.getBrokerIdsList()));
            }
            List<Config> configs = new ArrayList<>(t.getConfigsCount());
            for (CreatableTopicConfig c : t.getConfigsList()) {
                // An absent value stays null: the controller refuses it with INVALID_CONFIG.
                configs.add(new Config(c.getName(), c.hasValue() ? c.getValue() : null));
            }
            topics.add(new Topic(t.getName(), t.hasNumPartitions() ? t.getNumPartitions() : DEFAULT,
                    t.hasReplicationFactor() ? t.getReplicationFactor() : DEFAULT, assignments, configs));
        }
        return new io.metaquorum.metadata.controller.CreateTopicsRequest(topics, request.getValidateOnly());
    }

    static CreateTopicsResponse toProto(io.metaquorum.metadata.controller.CreateTopicsResponse response,
                                        int controllerId) {
        CreateTopicsResponse.Builder out = CreateTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.ofWrite(response.topics().stream().map(TopicResult::error).toList(),
                        controllerId));
        for (TopicResult r : response.topics()) {
            CreatableTopicResult.Builder topic = CreatableTopicResult.newBuilder().setName(r.name())
                    .setTopicId(r.topicId()).setErrorCode(r.error().code()).setErrorMessage(r.error().message())
                    .setNumPartitions(r.numPartitions()).setReplicationFactor(r.replicationFactor());
            if (r.error().isSuccess()) {
                topic.addAllConfigs(ConfigsConverter.topicConfigs(r.configs(), List.of()));
            }
            out.addTopics(topic);
        }
        return out.build();
    }

    /** The whole request failed with {@code error}: the header and every distinct topic carry it. */
    static CreateTopicsResponse failed(CreateTopicsRequest request, ApiError error, int controllerId) {
        CreateTopicsResponse.Builder out = CreateTopicsResponse.newBuilder()
                .setHeader(ResponseHeaders.header(error, controllerId, ResponseHeaders.NO_OFFSET));
        Set<String> names = new LinkedHashSet<>();
        for (CreatableTopic t : request.getTopicsList()) {
            names.add(t.getName());
        }
        for (String name : names) {
            out.addTopics(CreatableTopicResult.newBuilder().setName(name).setTopicId(TopicIds.ZERO)
                    .setErrorCode(error.code()).setErrorMessage(error.message()).setNumPartitions(-1)
                    .setReplicationFactor(-1));
        }
        return out.build();
    }
}
