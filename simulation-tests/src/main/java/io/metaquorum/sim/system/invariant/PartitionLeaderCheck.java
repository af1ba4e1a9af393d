package io.metaquorum.sim.system.invariant;

import io.metaquorum.metadata.image.BrokerRegistration;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.sim.invariant.CheckFailure;

/**
 * Every partition's leader is a replica, in its ISR, registered and unfenced; or the
 * partition is offline and says so (leader -1). Judged on committed images, which end at
 * batch boundaries: the controller fences a broker and moves its leaderships in one atomic
 * append, so no committed image shows the broker fenced and still leading. Catches a
 * controller that keeps a fenced broker as leader.
 */
public final class PartitionLeaderCheck {
    public static final String NAME = "leader-unfenced-in-isr";

    private PartitionLeaderCheck() {
    }

    public static void check(int nodeId, MetadataImage image) {
        for (TopicImage topic : image.topics().sortedByName()) {
            for (int p = 0; p < topic.partitionCount(); p++) {
                PartitionRegistration partition = topic.partition(p);
                int leader = partition.leader();
                if (leader == PartitionRegistration.NO_LEADER) {
                    continue;
                }
                String where = "node " + nodeId + " image at " + image.lastCommittedOffset() + ": " + topic.name()
                        + "-" + p + " " + partition;
                if (!partition.hasReplica(leader) || !partition.inIsr(leader)) {
                    throw new CheckFailure(NAME, where + ": the leader is not an in-sync replica");
                }
                BrokerRegistration broker = image.cluster().broker(leader);
                if (broker == null) {
                    throw new CheckFailure(NAME, where + ": the leader " + leader + " is not registered");
                }
                if (broker.fenced()) {
                    throw new CheckFailure(NAME, where + ": the leader " + leader + " is fenced");
                }
            }
        }
    }
}
