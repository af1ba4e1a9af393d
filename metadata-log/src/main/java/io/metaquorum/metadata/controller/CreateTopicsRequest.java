package io.metaquorum.metadata.controller;

import java.util.List;

/**
 * A CreateTopics batch in the KIP-4 shape (KIP-4): topics created independently, each
 * with either a manual replica assignment or counts, and {@code validateOnly} to run every
 * check without writing records.
 */
public record CreateTopicsRequest(List<Topic> topics, boolean validateOnly) {
    /** "Not given": take the controller's default ({@code num.partitions}, {@code default.replication.factor}). */
    public static final int DEFAULT = -1;

    public CreateTopicsRequest {
        topics = List.copyOf(topics);
    }

    /**
     * One topic to create.
     *
     * @param numPartitions     partitions, or {@link #DEFAULT}; must be DEFAULT with an assignment
     * @param replicationFactor replicas per partition, or {@link #DEFAULT}; the same
     * @param assignments       the manual assignment, empty for automatic placement
     * @param configs           topic configs, in request order
     */
    public record Topic(String name, int numPartitions, int replicationFactor, List<PartitionAssignment> assignments,
                        List<Config> configs) {
        public Topic {
            assignments = List.copyOf(assignments);
            configs = List.copyOf(configs);
        }

        public static Topic of(String name, int numPartitions, int replicationFactor) {
            return new Topic(name, numPartitions, replicationFactor, List.of(), List.of());
        }

        public Topic withConfigs(List<Config> newConfigs) {
            return new Topic(name, numPartitions, replicationFactor, assignments, newConfigs);
        }
    }

    /** The replicas of one partition, first the preferred leader. */
    public record PartitionAssignment(int partition, List<Integer> brokers) {
        public PartitionAssignment {
            brokers = List.copyOf(brokers);
        }
    }

    /** One config of the topic; a null value is refused (INVALID_CONFIG). */
    public record Config(String name, String value) {
    }
}
