package io.metaquorum.sim.system.node;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResult;
import io.metaquorum.metadata.controller.CreateTopicsResponse;
import io.metaquorum.metadata.controller.QuorumController;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsResult;
import io.metaquorum.metadata.controller.ReplicationControlManager.DeleteTopicResult;
import io.metaquorum.metadata.image.ConfigResource;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.ItemResult;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * A simulated node's admin service in front of the real {@link QuorumController}, as the
 * production {@code AdminServiceEndpoint} is: writes go to the controller (answered when
 * their records commit, or NOT_CONTROLLER from a standby), reads are served from the node's
 * committed image, tagged with its offset. It turns the controller's answers into per-item
 * results for the simulated clients and their history.
 *
 * <p>Called on the node's one simulated thread; {@code reply} is called exactly once per call,
 * maybe later (when the records commit).
 */
public final class ControllerAdminEndpoint {
    private final QuorumController controller;
    private final int writeTimeoutMs;
    private final IntSupplier knownControllerId;

    /**
     * @param writeTimeoutMs    how long a write waits for its commit before REQUEST_TIMED_OUT
     * @param knownControllerId the active controller as this node knows it, -1 when it does not
     */
    public ControllerAdminEndpoint(QuorumController controller, int writeTimeoutMs, IntSupplier knownControllerId) {
        this.controller = controller;
        this.writeTimeoutMs = writeTimeoutMs;
        this.knownControllerId = knownControllerId;
    }

    public void handle(AdminCall call, long nowMs, Consumer<AdminAnswer> reply) {
        if (call instanceof AdminCall.CreateTopics create) {
            controller.createTopics(create.request(), writeTimeoutMs, nowMs,
                    response -> reply.accept(answer(created(response, create.request().validateOnly()))));
        } else if (call instanceof AdminCall.DeleteTopics delete) {
            controller.deleteTopics(delete.names(), List.of(), writeTimeoutMs, nowMs,
                    results -> reply.accept(answer(deleted(results))));
        } else if (call instanceof AdminCall.CreatePartitions grow) {
            controller.createPartitions(grow.topics(), false, writeTimeoutMs, nowMs,
                    results -> reply.accept(answer(grown(results))));
        } else if (call instanceof AdminCall.AlterConfigs alter) {
            controller.incrementalAlterConfigs(alter.resources(), false, nowMs,
                    results -> reply.accept(answer(altered(results))));
        } else if (call instanceof AdminCall.DescribeTopic describe) {
            reply.accept(answer(List.of(describe(controller.committedImage(), describe.name()))));
        } else {
            reply.accept(answer(List.of(list(controller.committedImage()))));
        }
    }

    private AdminAnswer answer(List<ItemResult> items) {
        return new AdminAnswer(items, knownControllerId.getAsInt());
    }

    private static List<ItemResult> created(CreateTopicsResponse response, boolean validateOnly) {
        List<ItemResult> items = new ArrayList<>();
        for (CreateTopicsResponse.TopicResult topic : response.topics()) {
            ErrorCode code = topic.error().code();
            String id = code == ErrorCode.NONE && !validateOnly ? TopicIds.toBase64(topic.topicId()) : null;
            items.add(new ItemResult(topic.name(), code, new AdminOutput.WriteResult(code, id)));
        }
        return items;
    }

    private static List<ItemResult> deleted(List<DeleteTopicResult> results) {
        List<ItemResult> items = new ArrayList<>();
        for (DeleteTopicResult result : results) {
            ErrorCode code = result.error().code();
            String id = code == ErrorCode.NONE ? TopicIds.toBase64(result.topicId()) : null;
            items.add(new ItemResult(result.name(), code, new AdminOutput.WriteResult(code, id)));
        }
        return items;
    }

    private static List<ItemResult> grown(List<CreatePartitionsResult> results) {
        List<ItemResult> items = new ArrayList<>();
        for (CreatePartitionsResult result : results) {
            ErrorCode code = result.error().code();
            items.add(new ItemResult(result.name(), code, AdminOutput.WriteResult.failed(code)));
        }
        return items;
    }

    private static List<ItemResult> altered(List<AlterConfigsResult> results) {
        List<ItemResult> items = new ArrayList<>();
        for (AlterConfigsResult result : results) {
            ErrorCode code = result.error().code();
            items.add(new ItemResult(result.resource().name(), code, AdminOutput.WriteResult.failed(code)));
        }
        return items;
    }

    /** What a describe of {@code name} shows in {@code image}. */
    public static ItemResult describe(MetadataImage image, String name) {
        TopicImage topic = image.topics().topic(name);
        if (topic == null) {
            return new ItemResult(name, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, new AdminOutput.Described(
                    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, null, image.lastCommittedOffset()));
        }
        AdminOutput.TopicView view = new AdminOutput.TopicView(TopicIds.toBase64(topic.id().toUuid()),
                topic.partitionCount(), new TreeMap<>(image.configs().configs(ConfigResource.topic(name))));
        return new ItemResult(name, ErrorCode.NONE, new AdminOutput.Described(ErrorCode.NONE, view,
                image.lastCommittedOffset()));
    }

    /** What a list shows in {@code image}. */
    public static ItemResult list(MetadataImage image) {
        TreeMap<String, String> ids = new TreeMap<>();
        for (TopicImage topic : image.topics().sortedByName()) {
            ids.put(topic.name(), TopicIds.toBase64(topic.id().toUuid()));
        }
        return new ItemResult(AdminCall.ListTopics.ITEM, ErrorCode.NONE, new AdminOutput.Listed(ids,
                image.lastCommittedOffset()));
    }
}
