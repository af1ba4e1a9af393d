package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;

/**
 * What the quorum controller is configured with.
 *
 * @param settings                 the managers' settings: defaults, {@code broker.session.timeout.ms}, features
 * @param policy                   the {@code create.topic.policy.class.name} instance, or {@link CreateTopicPolicy#NONE}
 * @param idleIntervalMs           {@code metadata.max.idle.interval.ms}: a NoOpRecord this often on an idle cluster
 * @param appendRecordsMax         records one atomic append may hold (the raft batch limit)
 */
public record ControllerConfig(ControllerManagers.Settings settings, CreateTopicPolicy policy, long idleIntervalMs,
                               int appendRecordsMax) {
    public ControllerConfig {
        Invariants.check(idleIntervalMs > 0, "metadata.max.idle.interval.ms must be > 0, got %d", idleIntervalMs);
        Invariants.check(appendRecordsMax > 0, "appendRecordsMax must be > 0, got %d", appendRecordsMax);
    }
}
