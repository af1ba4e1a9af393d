package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;

/**
 * The controller's defaults for a CreateTopics count given as -1 or left out.
 *
 * @param numPartitions     {@code num.partitions} (Kafka's default 1)
 * @param replicationFactor {@code default.replication.factor} (Kafka's default 1)
 */
public record ReplicationDefaults(int numPartitions, int replicationFactor) {
    public static final ReplicationDefaults KAFKA = new ReplicationDefaults(1, 1);
    /** Records one operation may append at most (Kafka's {@code MAX_RECORDS_PER_USER_OP}). */
    public static final int RECORDS_PER_OPERATION_MAX = 10_000;

    public ReplicationDefaults {
        Invariants.check(numPartitions >= 1, "num.partitions must be >= 1, got %d", numPartitions);
        Invariants.check(replicationFactor >= 1 && replicationFactor <= Short.MAX_VALUE,
                "default.replication.factor must be in [1, 32767], got %d", replicationFactor);
    }
}
