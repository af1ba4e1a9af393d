package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResult;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.DeleteTopicResult;
import java.util.List;

/**
 * A decided response whose records did not make it (not the active controller, leadership
 * lost, not committed in time): every entry that would have succeeded gets {@code error};
 * entries refused for themselves keep their own error.
 */
final class ControllerResponses {
    private ControllerResponses() {
    }

    static CreateTopicsResponse createTopicsFailed(CreateTopicsResponse response, ApiError error) {
        return new CreateTopicsResponse(response.topics().stream()
                .map(t -> t.error().isSuccess() ? TopicResult.failed(t.name(), error) : t).toList());
    }

    static List<DeleteTopicResult> deleteTopicsFailed(List<DeleteTopicResult> results, ApiError error) {
        return results.stream()
                .map(r -> r.error().isSuccess() ? new DeleteTopicResult(r.name(), r.topicId(), error) : r).toList();
    }

    static List<CreatePartitionsResult> createPartitionsFailed(List<CreatePartitionsResult> results, ApiError error) {
        return results.stream().map(r -> r.error().isSuccess() ? new CreatePartitionsResult(r.name(), error) : r)
                .toList();
    }

    static List<AlterConfigsResult> alterConfigsFailed(List<AlterConfigsResult> results, ApiError error) {
        return results.stream().map(r -> r.error().isSuccess() ? new AlterConfigsResult(r.resource(), error) : r)
                .toList();
    }
}
