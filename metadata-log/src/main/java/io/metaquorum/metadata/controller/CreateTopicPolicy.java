package io.metaquorum.metadata.controller;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hook of {@code create.topic.policy.class.name} (Kafka's {@code CreateTopicPolicy}).
 * The class is loaded by name once at start-up, outside the deterministic core, and handed
 * to {@link ReplicationControlManager}; a refusal becomes POLICY_VIOLATION with its message.
 */
@FunctionalInterface
public interface CreateTopicPolicy {
    /** Accepts everything. */
    CreateTopicPolicy NONE = request -> Optional.empty();

    /**
     * What the policy is asked about: the topic after defaults are applied.
     *
     * @param replicaAssignment the manual assignment by partition, empty for automatic placement
     */
    record RequestMetadata(String topic, int numPartitions, int replicationFactor,
                           Map<Integer, List<Integer>> replicaAssignment, Map<String, String> configs) {
    }

    /** Why the topic may not be created, or empty to allow it. */
    Optional<String> violation(RequestMetadata request);
}
