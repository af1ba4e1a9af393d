package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.protocol.ErrorCode;
import java.util.TreeSet;

/**
 * The reference model's rules for one topic of a CreateTopics call, in Kafka's order
 * (docs/kafka-compatibility.md, "CreateTopics checks"): name, reserved name,
 * exists, manual assignment or counts, configs. Written from the notes, not from the
 * controller, so that the two can disagree. Name collisions ('.' versus '_') are not
 * predicted: the workload's valid names hold neither character.
 */
final class CreatePrediction {
    /** The internal topic's name ({@code __cluster_metadata}). */
    static final String METADATA_TOPIC = "__cluster_metadata";
    static final int NAME_LENGTH_MAX = 249;

    private CreatePrediction() {
    }

    /**
     * @param knowledge   what the model knows of the name
     * @param defaults    {@code num.partitions} and {@code default.replication.factor}
     */
    static Expectation predict(CreateTopicsRequest.Topic topic, int timesInRequest, NameKnowledge knowledge,
                               ClusterView cluster, int defaultPartitions, int defaultReplicationFactor) {
        String name = topic.name();
        if (timesInRequest > 1) {
            return Expectation.of(name, "listed twice in one request", ErrorCode.INVALID_REQUEST);
        }
        if (!legalName(name)) {
            return Expectation.of(name, "illegal name", ErrorCode.INVALID_TOPIC_EXCEPTION);
        }
        if (name.equals(METADATA_TOPIC)) {
            return Expectation.of(name, "internal topic", ErrorCode.INVALID_REQUEST);
        }
        if (knowledge == NameKnowledge.PRESENT) {
            return Expectation.of(name, "exists", ErrorCode.TOPIC_ALREADY_EXISTS);
        }
        Expectation rest = topic.assignments().isEmpty()
                ? automatic(topic, cluster, defaultPartitions, defaultReplicationFactor) : manual(topic, cluster);
        if (rest.allowed().contains(ErrorCode.NONE)) {
            rest = configs(topic, rest);
        }
        return knowledge == NameKnowledge.UNSURE ? rest.or("it may exist", ErrorCode.TOPIC_ALREADY_EXISTS) : rest;
    }

    static boolean legalName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.length() > NAME_LENGTH_MAX) {
            return false;
        }
        for (char c : name.toCharArray()) {
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '_' || c == '-';
            if (!legal) {
                return false;
            }
        }
        return true;
    }

    private static Expectation automatic(CreateTopicsRequest.Topic topic, ClusterView cluster, int defaultPartitions,
                                         int defaultReplicationFactor) {
        String name = topic.name();
        int partitions = topic.numPartitions() == CreateTopicsRequest.DEFAULT ? defaultPartitions : topic.numPartitions();
        int rf = topic.replicationFactor() == CreateTopicsRequest.DEFAULT ? defaultReplicationFactor
                : topic.replicationFactor();
        if (partitions <= 0) {
            return Expectation.of(name, "non-positive partition count", ErrorCode.INVALID_PARTITIONS);
        }
        if (rf <= 0) {
            return Expectation.of(name, "non-positive replication factor", ErrorCode.INVALID_REPLICATION_FACTOR);
        }
        if (rf > cluster.registered().size()) {
            return Expectation.of(name, "replication factor above the registered brokers",
                    ErrorCode.INVALID_REPLICATION_FACTOR);
        }
        Expectation ok = Expectation.of(name, "valid counts", ErrorCode.NONE);
        return rf <= cluster.surelyUnfenced().size() ? ok
                : ok.or("too few brokers may be unfenced", ErrorCode.INVALID_REPLICATION_FACTOR);
    }

    private static Expectation manual(CreateTopicsRequest.Topic topic, ClusterView cluster) {
        String name = topic.name();
        if (topic.numPartitions() != CreateTopicsRequest.DEFAULT
                || topic.replicationFactor() != CreateTopicsRequest.DEFAULT) {
            return Expectation.of(name, "an assignment together with counts", ErrorCode.INVALID_REQUEST);
        }
        int replicaCount = -1;
        // Production refuses an assignment in which some partition has every replica fenced.
        boolean everyPartitionSurelyServed = true;
        for (int i = 0; i < topic.assignments().size(); i++) {
            PartitionAssignment assignment = topic.assignments().get(i);
            TreeSet<Integer> distinct = new TreeSet<>(assignment.brokers());
            boolean bad = assignment.partition() != i || assignment.brokers().isEmpty()
                    || distinct.size() != assignment.brokers().size()
                    || !cluster.registered().containsAll(distinct)
                    || (replicaCount >= 0 && replicaCount != assignment.brokers().size());
            if (bad) {
                return Expectation.of(name, "invalid assignment of partition index " + i,
                        ErrorCode.INVALID_REPLICA_ASSIGNMENT);
            }
            replicaCount = assignment.brokers().size();
            everyPartitionSurelyServed &= distinct.stream().anyMatch(cluster.surelyUnfenced()::contains);
        }
        Expectation ok = Expectation.of(name, "valid assignment", ErrorCode.NONE);
        return everyPartitionSurelyServed ? ok
                : ok.or("all replicas of a partition may be fenced", ErrorCode.INVALID_REPLICA_ASSIGNMENT);
    }

    private static Expectation configs(CreateTopicsRequest.Topic topic, Expectation valid) {
        TreeSet<String> seen = new TreeSet<>();
        for (Config config : topic.configs()) {
            if (!ConfigSpec.valid(config.name(), config.value()) || !seen.add(config.name())) {
                Expectation invalid = Expectation.of(topic.name(), "invalid config " + config.name() + "="
                        + config.value(), ErrorCode.INVALID_CONFIG);
                // The placement is judged first: what it may refuse (no unfenced broker) it may still refuse.
                for (ErrorCode other : valid.allowed()) {
                    if (other != ErrorCode.NONE) {
                        invalid = invalid.or("placement: " + valid.why(), other);
                    }
                }
                return invalid;
            }
        }
        return valid;
    }
}
