package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.AclControlManager.CreateAclsResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsFilterResult;
import io.metaquorum.metadata.controller.AclControlManager.DeleteAclsResult;
import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResult;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.DeleteTopicResult;
import io.metaquorum.metadata.controller.ScramControlManager.AlterResult;
import io.metaquorum.metadata.controller.ScramControlManager.UserResult;
import java.util.List;

/**
 * A decided response whose records did not make it (leadership lost, not committed in
 * time): every entry that would have succeeded gets {@code error}, and entries refused for
 * themselves keep their own error, unless {@code all} (a standby, whose view is not the one
 * to decide on) gives every entry {@code error}.
 */
final class ControllerResponses {
    private ControllerResponses() {
    }

    static CreateTopicsResponse createTopicsFailed(CreateTopicsResponse response, ApiError error, boolean all) {
        return new CreateTopicsResponse(response.topics().stream()
                .map(t -> all || t.error().isSuccess() ? TopicResult.failed(t.name(), error) : t).toList());
    }

    static List<DeleteTopicResult> deleteTopicsFailed(List<DeleteTopicResult> results, ApiError error, boolean all) {
        return results.stream()
                .map(r -> all || r.error().isSuccess() ? new DeleteTopicResult(r.name(), r.topicId(), error) : r).toList();
    }

    static List<CreatePartitionsResult> createPartitionsFailed(List<CreatePartitionsResult> results, ApiError error,
                                                               boolean all) {
        return results.stream().map(r -> all || r.error().isSuccess() ? new CreatePartitionsResult(r.name(), error) : r)
                .toList();
    }

    static List<AlterConfigsResult> alterConfigsFailed(List<AlterConfigsResult> results, ApiError error, boolean all) {
        return results.stream().map(r -> all || r.error().isSuccess() ? new AlterConfigsResult(r.resource(), error) : r)
                .toList();
    }

    /** ACL writes that did not make it changed nothing: no commit offset, and no filter deleted anything. */
    static CreateAclsResult createAclsFailed(CreateAclsResult response, ApiError error, boolean all) {
        return new CreateAclsResult(response.results().stream().map(r -> all || r.isSuccess() ? error : r).toList(),
                AclControlManager.NO_COMMIT);
    }

    static DeleteAclsResult deleteAclsFailed(DeleteAclsResult response, ApiError error, boolean all) {
        return new DeleteAclsResult(response.results().stream()
                .map(r -> all || r.error().isSuccess() ? DeleteAclsFilterResult.failed(error) : r).toList(),
                AclControlManager.NO_COMMIT);
    }

    static AlterResult alterScramFailed(AlterResult response, ApiError error, boolean all) {
        return new AlterResult(response.results().stream()
                .map(r -> all || r.error().isSuccess() ? new UserResult(r.user(), error) : r).toList(),
                AclControlManager.NO_COMMIT);
    }
}
