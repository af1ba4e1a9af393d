package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Config;
import io.metaquorum.metadata.controller.CreateTopicsRequest.PartitionAssignment;
import io.metaquorum.metadata.controller.CreateTopicsRequest.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedSet;

/**
 * Topics that are invalid on purpose, one defect each (so the expected code does not depend
 * on the order of Kafka's checks between two defects), on names never used for anything else.
 */
final class InvalidTopics {
    /** The defects, one of which each invalid topic has. */
    enum Defect {
        EMPTY_NAME, DOT_NAME, LONG_NAME, ILLEGAL_CHARACTER, INTERNAL_NAME, ZERO_PARTITIONS, NEGATIVE_PARTITIONS,
        ZERO_REPLICATION_FACTOR, REPLICATION_FACTOR_ABOVE_BROKERS, ASSIGNMENT_WITH_COUNTS, ASSIGNMENT_GAP,
        ASSIGNMENT_EMPTY_REPLICAS, ASSIGNMENT_BROKER_TWICE, ASSIGNMENT_UNREGISTERED_BROKER, ASSIGNMENT_UNEQUAL_COUNTS,
        CONFIG_UNKNOWN, CONFIG_NOT_A_NUMBER, CONFIG_OUT_OF_RANGE, CONFIG_NOT_IN_LIST, CONFIG_TWICE
    }

    /** A broker id no simulated cluster registers. */
    static final int UNREGISTERED_BROKER = 9_999;

    private InvalidTopics() {
    }

    static Topic make(Defect defect, String freshName, SortedSet<Integer> brokers, Random random) {
        int broker = brokers.first();
        List<PartitionAssignment> one = List.of(new PartitionAssignment(0, List.of(broker)));
        return switch (defect) {
            case EMPTY_NAME -> Topic.of("", 1, 1);
            case DOT_NAME -> Topic.of(random.nextBoolean() ? "." : "..", 1, 1);
            case LONG_NAME -> Topic.of("x".repeat(CreatePrediction.NAME_LENGTH_MAX + 1), 1, 1);
            case ILLEGAL_CHARACTER -> Topic.of(freshName + (random.nextBoolean() ? "!" : "/x"), 1, 1);
            case INTERNAL_NAME -> Topic.of(CreatePrediction.METADATA_TOPIC, 1, 1);
            case ZERO_PARTITIONS -> Topic.of(freshName, 0, 1);
            case NEGATIVE_PARTITIONS -> Topic.of(freshName, -2 - random.nextInt(5), 1);
            case ZERO_REPLICATION_FACTOR -> Topic.of(freshName, 1, random.nextBoolean() ? 0 : -3);
            case REPLICATION_FACTOR_ABOVE_BROKERS -> Topic.of(freshName, 1, brokers.size() + 1 + random.nextInt(3));
            case ASSIGNMENT_WITH_COUNTS -> new Topic(freshName, 1, CreateTopicsRequest.DEFAULT, one, List.of());
            case ASSIGNMENT_GAP -> manual(freshName, List.of(new PartitionAssignment(0, List.of(broker)),
                    new PartitionAssignment(2, List.of(broker))));
            case ASSIGNMENT_EMPTY_REPLICAS -> manual(freshName, List.of(new PartitionAssignment(0, List.of())));
            case ASSIGNMENT_BROKER_TWICE -> manual(freshName, List.of(new PartitionAssignment(0, List.of(broker, broker))));
            case ASSIGNMENT_UNREGISTERED_BROKER -> manual(freshName,
                    List.of(new PartitionAssignment(0, List.of(broker, UNREGISTERED_BROKER))));
            case ASSIGNMENT_UNEQUAL_COUNTS -> brokers.size() < 2 ? manual(freshName, List.of(
                    new PartitionAssignment(0, List.of()))) : manual(freshName, List.of(
                    new PartitionAssignment(0, List.of(broker)),
                    new PartitionAssignment(1, new ArrayList<>(brokers).subList(0, 2))));
            case CONFIG_UNKNOWN -> withConfig(freshName, new Config("no.such.config", "1"));
            case CONFIG_NOT_A_NUMBER -> withConfig(freshName, new Config("retention.ms", "notanumber"));
            case CONFIG_OUT_OF_RANGE -> withConfig(freshName, new Config("min.insync.replicas", "0"));
            case CONFIG_NOT_IN_LIST -> withConfig(freshName, new Config("cleanup.policy", "sometimes"));
            case CONFIG_TWICE -> Topic.of(freshName, 1, 1).withConfigs(List.of(new Config("retention.ms", "1000"),
                    new Config("retention.ms", "2000")));
        };
    }

    private static Topic manual(String name, List<PartitionAssignment> assignments) {
        return new Topic(name, CreateTopicsRequest.DEFAULT, CreateTopicsRequest.DEFAULT, assignments, List.of());
    }

    private static Topic withConfig(String name, Config config) {
        return Topic.of(name, 1, 1).withConfigs(List.of(config));
    }
}
