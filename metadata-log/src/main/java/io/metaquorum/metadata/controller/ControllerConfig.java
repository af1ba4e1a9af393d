package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.MetadataRecord;
import java.util.List;

/**
 * What the quorum controller is configured with.
 *
 * @param settings                 the managers' settings: defaults, {@code broker.session.timeout.ms}, features
 * @param policy                   the {@code create.topic.policy.class.name} instance, or {@link CreateTopicPolicy#NONE}
 * @param idleIntervalMs           {@code metadata.max.idle.interval.ms}: a NoOpRecord this often on an idle cluster
 * @param appendRecordsMax         records one atomic append may hold (the raft batch limit)
 * @param bootstrapRecords         records the cluster's first active controller appends with the
 *                                 metadata.version record, once, on an empty log: the SCRAM credentials
 *                                 {@code mq-storage format --add-scram} wrote (checked when read)
 */
public record ControllerConfig(ControllerManagers.Settings settings, CreateTopicPolicy policy, long idleIntervalMs,
                               int appendRecordsMax, List<MetadataRecord> bootstrapRecords) {
    public ControllerConfig {
        Invariants.check(idleIntervalMs > 0, "metadata.max.idle.interval.ms must be > 0, got %d", idleIntervalMs);
        Invariants.check(appendRecordsMax > 0, "appendRecordsMax must be > 0, got %d", appendRecordsMax);
        bootstrapRecords = List.copyOf(bootstrapRecords);
        // The bootstrap goes in one atomic append with the metadata.version record.
        Invariants.check(bootstrapRecords.size() < appendRecordsMax, "%d bootstrap records do not fit one append "
                + "of %d", bootstrapRecords.size(), appendRecordsMax);
    }

    /** A controller with nothing to bootstrap beyond metadata.version. */
    public ControllerConfig(ControllerManagers.Settings settings, CreateTopicPolicy policy, long idleIntervalMs,
                            int appendRecordsMax) {
        this(settings, policy, idleIntervalMs, appendRecordsMax, List.of());
    }
}
