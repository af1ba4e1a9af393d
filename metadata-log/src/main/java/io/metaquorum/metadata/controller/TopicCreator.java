package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import io.metaquorum.metadata.controller.CreateTopicsResponse.TopicResult;
import io.metaquorum.metadata.controller.placement.StripedReplicaPlacer;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.ClusterImage;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.ConfigRecord;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decides one topic of a CreateTopics batch, with Kafka's checks in Kafka's order
 * (docs/kafka-compatibility.md): name, reserved name, exists / collides, manual assignment or counts,
 * configs, policy. Duplicates within the request are caught before, by the manager.
 */
final class TopicCreator {
    private final ReplicationDefaults defaults;
    private final CreateTopicPolicy policy;
    private final StripedReplicaPlacer placer;
    private final TopicIdGenerator ids;

    TopicCreator(ReplicationDefaults defaults, CreateTopicPolicy policy, StripedReplicaPlacer placer,
                 TopicIdGenerator ids) {
        this.defaults = defaults;
        this.policy = policy;
        this.placer = placer;
        this.ids = ids;
    }

    /** One topic's result and, unless it failed or the request is validate-only, its records. */
    record Outcome(TopicResult result, List<MetadataRecord> records) {
    }

    /** The placement of the partitions: replicas by partition, and the initial ISR. */
    private record Placement(List<int[]> replicas, List<int[]> isrs, ApiError error) {
        static Placement failed(ApiError error) {
            return new Placement(List.of(), List.of(), error);
        }
    }

    Outcome create(Topic topic, MetadataImage image, Collection<String> createdInRequest, Set<UuidKey> idsInRequest,
                   boolean validateOnly) {
        String name = topic.name();
        Optional<ApiError> refused = TopicNames.illegal(name).or(() -> TopicNames.reserved(name))
                .or(() -> exists(name, image)).or(() -> TopicNames.collision(name, image.topics(), createdInRequest));
        if (refused.isPresent()) {
            return failed(name, refused.get());
        }
        Placement placement = topic.assignments().isEmpty() ? automatic(topic, image.cluster())
                : manual(topic, image.cluster());
        if (!placement.error().isSuccess()) {
            return failed(name, placement.error());
        }
        Map<String, String> configs = new TreeMap<>();
        for (Config config : topic.configs()) {
            Optional<ApiError> bad = TopicConfigCatalog.check(config.name(), config.value());
            if (bad.isEmpty() && configs.put(config.name(), config.value()) != null) {
                bad = Optional.of(ApiError.of(ErrorCode.INVALID_CONFIG, "Config " + config.name()
                        + " is given more than once."));
            }
            if (bad.isPresent()) {
                return failed(name, bad.get());
            }
        }
        int partitions = placement.replicas().size();
        int replicationFactor = placement.replicas().get(0).length;
        Optional<String> violation = policy.violation(new CreateTopicPolicy.RequestMetadata(name, partitions,
                replicationFactor, manualAssignment(topic), configs));
        if (violation.isPresent()) {
            return failed(name, ApiError.of(ErrorCode.POLICY_VIOLATION, violation.get()));
        }
        if (validateOnly) {
            return new Outcome(new TopicResult(name, ApiError.NONE, TopicIds.ZERO, partitions, replicationFactor,
                    configs), List.of());
        }
        Uuid id = ids.next(key -> image.topics().topic(key) != null || idsInRequest.contains(key));
        idsInRequest.add(UuidKey.of(id));
        return new Outcome(new TopicResult(name, ApiError.NONE, id, partitions, replicationFactor, configs),
                records(name, id, placement, configs));
    }

    private static Optional<ApiError> exists(String name, MetadataImage image) {
        if (image.topics().topic(name) != null) {
            return Optional.of(ApiError.of(ErrorCode.TOPIC_ALREADY_EXISTS, "Topic '" + name + "' already exists."));
        }
        return Optional.empty();
    }

    private static Placement manual(Topic topic, ClusterImage cluster) {
        if (topic.numPartitions() != CreateTopicsRequest.DEFAULT
                || topic.replicationFactor() != CreateTopicsRequest.DEFAULT) {
            return Placement.failed(ApiError.of(ErrorCode.INVALID_REQUEST, "A manual replica assignment was given "
                    + "together with numPartitions or replicationFactor; only one of the two may be set."));
        }
        ReplicaAssignments.Checked checked = ReplicaAssignments.check(topic.assignments(), 0, 0, cluster);
        if (!checked.error().isSuccess()) {
            return Placement.failed(checked.error());
        }
        if (checked.replicasByPartition().size() >= ReplicationDefaults.RECORDS_PER_OPERATION_MAX) {
            return Placement.failed(tooManyPartitions(checked.replicasByPartition().size()));
        }
        List<int[]> isrs = new ArrayList<>();
        for (int[] replicas : checked.replicasByPartition()) {
            isrs.add(ReplicaAssignments.unfenced(replicas, cluster));
        }
        return new Placement(checked.replicasByPartition(), isrs, ApiError.NONE);
    }

    private Placement automatic(Topic topic, ClusterImage cluster) {
        int partitions = topic.numPartitions() == CreateTopicsRequest.DEFAULT ? defaults.numPartitions()
                : topic.numPartitions();
        int replicationFactor = topic.replicationFactor() == CreateTopicsRequest.DEFAULT
                ? defaults.replicationFactor() : topic.replicationFactor();
        if (partitions <= 0) {
            return Placement.failed(ApiError.of(ErrorCode.INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value."));
        }
        if (partitions >= ReplicationDefaults.RECORDS_PER_OPERATION_MAX) {
            return Placement.failed(tooManyPartitions(partitions));
        }
        if (replicationFactor <= 0) {
            return Placement.failed(ApiError.of(ErrorCode.INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0, or -1 to use the default value."));
        }
        if (replicationFactor > Short.MAX_VALUE) {
            return Placement.failed(ApiError.of(ErrorCode.INVALID_REPLICATION_FACTOR,
                    "Replication factor must be at most " + Short.MAX_VALUE + "."));
        }
        List<BrokerRegistration> usable = cluster.unfencedSortedById();
        if (replicationFactor > usable.size()) {
            return Placement.failed(ApiError.of(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the "
                    + "partition " + replicationFactor + " time(s): The target replication factor of "
                    + replicationFactor + " cannot be reached because only " + usable.size()
                    + " broker(s) are registered."));
        }
        List<int[]> replicas = placer.place(usable, partitions, replicationFactor);
        return new Placement(replicas, replicas, ApiError.NONE);
    }

    static ApiError tooManyPartitions(int partitions) {
        return ApiError.of(ErrorCode.INVALID_PARTITIONS, "Number of partitions " + partitions + " is more than "
                + (ReplicationDefaults.RECORDS_PER_OPERATION_MAX - 1) + ", the most one operation can create.");
    }

    private static Map<Integer, List<Integer>> manualAssignment(Topic topic) {
        Map<Integer, List<Integer>> assignment = new LinkedHashMap<>();
        for (PartitionAssignment partition : topic.assignments()) {
            assignment.put(partition.partition(), partition.brokers());
        }
        return assignment;
    }

    private static List<MetadataRecord> records(String name, Uuid id, Placement placement,
                                                Map<String, String> configs) {
        List<MetadataRecord> records = new ArrayList<>(1 + placement.replicas().size() + configs.size());
        records.add(MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id))
                .build());
        for (int p = 0; p < placement.replicas().size(); p++) {
            records.add(partitionRecord(id, p, placement.replicas().get(p), placement.isrs().get(p)));
        }
        for (Map.Entry<String, String> config : configs.entrySet()) {
            records.add(MetadataRecord.newBuilder().setConfig(ConfigRecord.newBuilder()
                    .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TOPIC).setResourceName(name)
                    .setName(config.getKey()).setValue(config.getValue())).build());
        }
        return records;
    }

    /** A new partition: the first in-sync replica leads, both epochs 0. */
    static MetadataRecord partitionRecord(Uuid topicId, int partition, int[] replicas, int[] isr) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(topicId)
                .setPartition(partition).addAllReplicas(Arrays.stream(replicas).boxed().toList())
                .addAllIsr(Arrays.stream(isr).boxed().toList()).setLeader(isr[0]).setLeaderEpoch(0)
                .setPartitionEpoch(0)).build();
    }

    private static Outcome failed(String name, ApiError error) {
        return new Outcome(TopicResult.failed(name, error), List.of());
    }
}
