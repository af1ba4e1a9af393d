package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.UuidKey;

/**
 * A partition directory renamed aside, waiting for {@code delete.stale.topic.delay.ms}.
 *
 * @param location   where it is now (its {@code -stray} name)
 * @param partition  the partition its name says it was
 * @param topicId    the id its {@code partition.metadata} holds, or null when that file is missing or malformed
 * @param stagedAtMs when it was staged (from its name)
 */
record StrayDir(DirLocation location, int partition, UuidKey topicId, long stagedAtMs) {
    /** When it may be deleted, saturating instead of overflowing for a huge delay. */
    long deadlineMs(long delayMs) {
        long deadline = stagedAtMs + delayMs;
        return deadline < stagedAtMs ? Long.MAX_VALUE : deadline;
    }
}
