package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.ClusterImage;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checks of a manual replica assignment (CreateTopics, CreatePartitions), each failure
 * INVALID_REPLICA_ASSIGNMENT with Kafka's message: partition ids a consecutive sequence
 * from {@code firstPartition}, no empty replica list, no broker twice, every broker
 * registered, the same replica count everywhere, and at least one unfenced replica.
 */
final class ReplicaAssignments {
    private ReplicaAssignments() {
    }

    /** The assignment by partition id, or the error. */
    record Checked(List<int[]> replicasByPartition, ApiError error) {
    }

    static Checked check(List<PartitionAssignment> assignments, int firstPartition, int expectedReplicas,
                         ClusterImage cluster) {
        TreeMap<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (PartitionAssignment assignment : assignments) {
            if (byPartition.put(assignment.partition(), assignment.brokers()) != null) {
                return failed("The manual partition assignment lists partition " + assignment.partition()
                        + " more than once.");
            }
        }
        int expectedId = firstPartition;
        for (int id : byPartition.keySet()) {
            if (id != expectedId) {
                return failed("The manual partition assignment includes partition ids " + byPartition.keySet()
                        + ", but they must be a consecutive sequence starting at " + firstPartition + ".");
            }
            expectedId++;
        }
        List<int[]> replicas = new ArrayList<>(byPartition.size());
        int replicaCount = expectedReplicas;
        for (Map.Entry<Integer, List<Integer>> partition : byPartition.entrySet()) {
            List<Integer> brokers = partition.getValue();
            Optional<String> problem = problem(partition.getKey(), brokers, replicaCount, cluster);
            if (problem.isPresent()) {
                return failed(problem.get());
            }
            replicaCount = brokers.size();
            replicas.add(brokers.stream().mapToInt(Integer::intValue).toArray());
        }
        return new Checked(replicas, ApiError.NONE);
    }

    private static Optional<String> problem(int partition, List<Integer> brokers, int replicaCount,
                                            ClusterImage cluster) {
        if (brokers.isEmpty()) {
            return Optional.of("The manual partition assignment includes an empty replica list.");
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (int broker : brokers) {
            if (!seen.add(broker)) {
                return Optional.of("The manual partition assignment includes the broker " + broker
                        + " more than once.");
            }
        }
        for (int broker : brokers) {
            if (cluster.broker(broker) == null) {
                return Optional.of("The manual partition assignment includes broker " + broker
                        + ", but no such broker is registered.");
            }
        }
        if (replicaCount > 0 && brokers.size() != replicaCount) {
            return Optional.of("The manual partition assignment includes a partition with " + brokers.size()
                    + " replica(s), but this is not consistent with previous partitions, which have "
                    + replicaCount + " replica(s).");
        }
        if (brokers.stream().map(cluster::broker).allMatch(BrokerRegistration::fenced)) {
            return Optional.of("All brokers specified in the manual partition assignment for partition "
                    + partition + " are fenced: " + brokers + ".");
        }
        return Optional.empty();
    }

    /** The unfenced replicas in replica order: the initial ISR of a manually placed partition. */
    static int[] unfenced(int[] replicas, ClusterImage cluster) {
        return Arrays.stream(replicas).filter(id -> !cluster.broker(id).fenced()).toArray();
    }

    private static Checked failed(String message) {
        return new Checked(List.of(), ApiError.of(ErrorCode.INVALID_REPLICA_ASSIGNMENT, message));
    }
}
