package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;

/**
 * What the quorum controller is configured with.
 *
 * @param defaults                 {@code num.partitions} and {@code default.replication.factor}
 * @param policy                   the {@code create.topic.policy.class.name} instance, or {@link CreateTopicPolicy#NONE}
 * @param brokerSessionTimeoutMs   {@code broker.session.timeout.ms}: a broker not heard from this long is fenced
 * @param idleIntervalMs           {@code metadata.max.idle.interval.ms}: a NoOpRecord this often on an idle cluster
 * @param appendRecordsMax         records one atomic append may hold (the raft batch limit)
 */
public record ControllerConfig(ReplicationDefaults defaults, CreateTopicPolicy policy, long brokerSessionTimeoutMs,
                               long idleIntervalMs, int appendRecordsMax) {
    public ControllerConfig {
        Invariants.check(brokerSessionTimeoutMs > 0, "broker.session.timeout.ms must be > 0, got %d",
                brokerSessionTimeoutMs);
        Invariants.check(idleIntervalMs > 0, "metadata.max.idle.interval.ms must be > 0, got %d", idleIntervalMs);
        Invariants.check(appendRecordsMax > 0, "appendRecordsMax must be > 0, got %d", appendRecordsMax);
    }
}
