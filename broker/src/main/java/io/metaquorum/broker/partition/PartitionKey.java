package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.UuidKey;

/** One partition of one topic, by topic id (names can be reused after a delete, ids cannot). */
record PartitionKey(UuidKey topicId, int partition) implements Comparable<PartitionKey> {
    @Override
    public int compareTo(PartitionKey o) {
        int c = topicId.compareTo(o.topicId);
        return c != 0 ? c : Integer.compare(partition, o.partition);
    }
}
