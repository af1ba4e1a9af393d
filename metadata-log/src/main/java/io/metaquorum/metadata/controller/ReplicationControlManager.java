package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.metadata.controller.placement.StripedReplicaPlacer;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveTopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Topics and partitions (Kafka's {@code ReplicationControlManager}): CreateTopics,
 * DeleteTopics, CreatePartitions, and the partition changes that follow a broker being
 * fenced or unfenced. Decides only: every method reads {@link ControllerState#image()} and
 * returns records; the state moves when they are replayed.
 *
 * <p>Deterministic: topic ids and placement draw on the injected random source only.
 */
public final class ReplicationControlManager {
    private final ControllerState state;
    private final TopicCreator creator;
    private final StripedReplicaPlacer placer;

    public ReplicationControlManager(ControllerState state, ReplicationDefaults defaults, CreateTopicPolicy policy,
                                     RandomGenerator random) {
        this.state = state;
        this.placer = new StripedReplicaPlacer(random);
        this.creator = new TopicCreator(defaults, policy, placer, new TopicIdGenerator(random));
    }

    /**
     * CreateTopics (docs/architecture.md §6): one result per distinct name, in the order names first
     * appear; no short-circuit. A name given twice is INVALID_REQUEST and is not created.
     * Under {@code validateOnly} every check runs and no records are returned. The records of
     * one request are one atomic append, so a topic that would take them past
     * {@link ReplicationDefaults#RECORDS_PER_OPERATION_MAX} fails alone with POLICY_VIOLATION
     * (the caller retries it in a smaller request); the topics after it still go on.
     */
    public ControllerResult<CreateTopicsResponse> createTopics(CreateTopicsRequest request) {
        MetadataImage image = state.image();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Topic topic : request.topics()) {
            counts.merge(topic.name(), 1, Integer::sum);
        }
        List<String> created = new ArrayList<>();
        Set<UuidKey> idsInRequest = new LinkedHashSet<>();
        Set<String> answered = new LinkedHashSet<>();
        List<TopicResult> results = new ArrayList<>();
        List<MetadataRecord> records = new ArrayList<>();
        for (Topic topic : request.topics()) {
            if (!answered.add(topic.name())) {
                continue;
            }
            if (counts.get(topic.name()) > 1) {
                results.add(TopicResult.failed(topic.name(), ApiError.of(ErrorCode.INVALID_REQUEST,
                        "Topic '" + topic.name() + "' is listed more than once in the request.")));
                continue;
            }
            TopicCreator.Outcome outcome = creator.create(topic, image, created, idsInRequest,
                    request.validateOnly());
            if (records.size() + outcome.records().size() > ReplicationDefaults.RECORDS_PER_OPERATION_MAX) {
                results.add(TopicResult.failed(topic.name(), ApiError.of(ErrorCode.POLICY_VIOLATION, "Creating '"
                        + topic.name() + "' would take this request past " + ReplicationDefaults.RECORDS_PER_OPERATION_MAX
                        + " records; create it in a smaller request.")));
                continue;
            }
            results.add(outcome.result());
            records.addAll(outcome.records());
            if (outcome.result().error().isSuccess()) {
                created.add(topic.name());
            }
        }
        return ControllerResult.of(records, new CreateTopicsResponse(results));
    }

    /** One DeleteTopics entry's result, by the name or id it was asked with. */
    public record DeleteTopicResult(String name, Uuid topicId, ApiError error) {
    }

    /** DeleteTopics by name and by id; each unknown one fails alone. */
    public ControllerResult<List<DeleteTopicResult>> deleteTopics(List<String> names, List<Uuid> ids) {
        MetadataImage image = state.image();
        Set<UuidKey> removed = new LinkedHashSet<>();
        List<DeleteTopicResult> results = new ArrayList<>();
        List<MetadataRecord> records = new ArrayList<>();
        for (String name : names) {
            TopicImage topic = image.topics().topic(name);
            if (topic == null) {
                results.add(new DeleteTopicResult(name, TopicIds.ZERO, ApiError.of(
                        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + name + "' does not exist.")));
            } else {
                results.add(new DeleteTopicResult(name, topic.id().toUuid(), ApiError.NONE));
                remove(topic, removed, records);
            }
        }
        for (Uuid id : ids) {
            TopicImage topic = image.topics().topic(UuidKey.of(id));
            if (topic == null) {
                results.add(new DeleteTopicResult("", id, ApiError.of(ErrorCode.UNKNOWN_TOPIC_ID,
                        "No topic has the id " + TopicIds.toBase64(id) + ".")));
            } else {
                results.add(new DeleteTopicResult(topic.name(), id, ApiError.NONE));
                remove(topic, removed, records);
            }
        }
        return ControllerResult.of(records, results);
    }

    private static void remove(TopicImage topic, Set<UuidKey> removed, List<MetadataRecord> records) {
        if (removed.add(topic.id())) {
            records.add(MetadataRecord.newBuilder().setRemoveTopic(RemoveTopicRecord.newBuilder()
                    .setTopicId(topic.id().toUuid())).build());
        }
    }

    /** One CreatePartitions entry: grow {@code name} to {@code count}, optionally placing the new ones. */
    public record CreatePartitionsTopic(String name, int count, List<CreateTopicsRequest.PartitionAssignment> assignments) {
        public CreatePartitionsTopic {
            assignments = List.copyOf(assignments);
        }
    }

    /** One CreatePartitions result. */
    public record CreatePartitionsResult(String name, ApiError error) {
    }

    /** CreatePartitions: only grows; a manual assignment for the new partitions is checked as on create. */
    public ControllerResult<List<CreatePartitionsResult>> createPartitions(List<CreatePartitionsTopic> topics,
                                                                           boolean validateOnly) {
        MetadataImage image = state.image();
        List<CreatePartitionsResult> results = new ArrayList<>();
        List<MetadataRecord> records = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (CreatePartitionsTopic topic : topics) {
            if (!seen.add(topic.name())) {
                results.add(new CreatePartitionsResult(topic.name(), ApiError.of(ErrorCode.INVALID_REQUEST,
                        "Topic '" + topic.name() + "' is listed more than once in the request.")));
                continue;
            }
            PartitionGrowth.Outcome outcome = PartitionGrowth.grow(topic, image, placer);
            results.add(new CreatePartitionsResult(topic.name(), outcome.error()));
            if (!validateOnly) {
                records.addAll(outcome.records());
            }
        }
        return ControllerResult.of(records, results);
    }

    /** The partition changes once {@code brokerId} is fenced; {@code afterFence} shows it fenced. */
    public List<MetadataRecord> partitionChangesAfterFence(MetadataImage afterFence, int brokerId) {
        return PartitionChanges.afterFence(afterFence.topics(), afterFence.cluster(), brokerId);
    }

    /** The partition changes once {@code brokerId} is unfenced. */
    public List<MetadataRecord> partitionChangesAfterUnfence(MetadataImage afterUnfence, int brokerId) {
        return PartitionChanges.afterUnfence(afterUnfence.topics(), brokerId);
    }
}
