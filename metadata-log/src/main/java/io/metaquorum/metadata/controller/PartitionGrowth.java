package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import io.metaquorum.metadata.controller.placement.StripedReplicaPlacer;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import java.util.ArrayList;
import java.util.List;

/** Decides one CreatePartitions entry: the checks and the PartitionRecords of the new partitions. */
final class PartitionGrowth {
    private PartitionGrowth() {
    }

    record Outcome(ApiError error, List<MetadataRecord> records) {
    }

    static Outcome grow(CreatePartitionsTopic request, MetadataImage image, StripedReplicaPlacer placer) {
        TopicImage topic = image.topics().topic(request.name());
        if (topic == null) {
            return failed(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic '" + request.name() + "' does not exist.");
        }
        int current = topic.partitionCount();
        if (request.count() < current) {
            return failed(ErrorCode.INVALID_PARTITIONS, "The topic " + topic.name() + " currently has " + current
                    + " partition(s); " + request.count() + " would not be an increase.");
        }
        if (request.count() == current) {
            return failed(ErrorCode.INVALID_PARTITIONS, "Topic already has " + current + " partition(s).");
        }
        int adding = request.count() - current;
        if (adding >= ReplicationDefaults.RECORDS_PER_OPERATION_MAX) {
            return new Outcome(TopicCreator.tooManyPartitions(adding), List.of());
        }
        int replicationFactor = topic.partition(0).replicaCount();
        List<int[]> replicas;
        List<int[]> isrs = new ArrayList<>();
        if (request.assignments().isEmpty()) {
            List<BrokerRegistration> usable = image.cluster().unfencedSortedById();
            if (replicationFactor > usable.size()) {
                return failed(ErrorCode.INVALID_REPLICATION_FACTOR, "Unable to replicate the partition "
                        + replicationFactor + " time(s): The target replication factor of " + replicationFactor
                        + " cannot be reached because only " + usable.size() + " broker(s) are registered.");
            }
            replicas = placer.place(usable, adding, replicationFactor);
            isrs.addAll(replicas);
        } else {
            if (request.assignments().size() != adding) {
                return failed(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + adding
                        + " additional partition(s), but only " + request.assignments().size()
                        + " assignment(s) were specified.");
            }
            ReplicaAssignments.Checked checked = ReplicaAssignments.check(request.assignments(), current,
                    replicationFactor, image.cluster());
            if (!checked.error().isSuccess()) {
                return new Outcome(checked.error(), List.of());
            }
            replicas = checked.replicasByPartition();
            for (int[] r : replicas) {
                isrs.add(ReplicaAssignments.unfenced(r, image.cluster()));
            }
        }
        List<MetadataRecord> records = new ArrayList<>(adding);
        for (int i = 0; i < adding; i++) {
            records.add(TopicCreator.partitionRecord(topic.id().toUuid(), current + i, replicas.get(i), isrs.get(i)));
        }
        return new Outcome(ApiError.NONE, records);
    }

    private static Outcome failed(ErrorCode code, String message) {
        return new Outcome(ApiError.of(code, message), List.of());
    }
}
