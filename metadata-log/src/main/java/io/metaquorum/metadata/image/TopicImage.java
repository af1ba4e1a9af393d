package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;

/**
 * One topic: its name, id and partitions by index (Kafka's {@code TopicImage}).
 *
 * <p>Invariant: the partition indexes are exactly 0..n-1 (partitions are only ever added
 * at the end, and a topic is removed whole).
 */
public record TopicImage(String name, UuidKey id, HashMap<Integer, PartitionRegistration> partitions) {
    public int partitionCount() {
        return partitions.size();
    }

    /** The partition, or null when the topic has no such index. */
    public PartitionRegistration partition(int index) {
        return partitions.get(index).getOrNull();
    }

    TopicImage withPartition(int index, PartitionRegistration partition) {
        return new TopicImage(name, id, partitions.put(index, partition));
    }
}
