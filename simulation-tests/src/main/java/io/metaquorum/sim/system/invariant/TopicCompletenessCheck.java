package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.sim.check.CheckFailure;

/**
 * No committed image holds a topic without all its partitions: at least one, indexes 0..n-1
 * each present. A CreateTopics is one atomic append (topic record, then every partition
 * record), so a topic with none, or with a gap, means an append was split or a record lost.
 */
public final class TopicCompletenessCheck {
    public static final String NAME = "topic-has-all-partitions";

    private TopicCompletenessCheck() {
    }

    public static void check(int nodeId, MetadataImage image) {
        for (TopicImage topic : image.topics().sortedByName()) {
            if (topic.partitionCount() == 0) {
                throw new CheckFailure(NAME, "node " + nodeId + " image at " + image.lastCommittedOffset() + ": topic '"
                        + topic.name() + "' has no partitions");
            }
            for (int p = 0; p < topic.partitionCount(); p++) {
                if (topic.partition(p) == null) {
                    throw new CheckFailure(NAME, "node " + nodeId + " image at " + image.lastCommittedOffset()
                            + ": topic '" + topic.name() + "' has " + topic.partitionCount()
                            + " partitions but no partition " + p);
                }
            }
        }
    }
}
