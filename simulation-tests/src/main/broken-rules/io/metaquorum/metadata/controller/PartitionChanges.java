package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.ClusterImage;
import io.metaquorum.metadata.image.PartitionRegistration;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionChangeRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * BROKEN twin of the metadata-log module's {@code PartitionChanges}, for the checker self-test
 * only (variant {@code fenced-leader-kept}): after a fence it leaves every partition the fenced
 * broker leads as it is (the leader and its ISR), so the controller keeps a fenced broker as
 * leader; partitions it only follows still drop it from their ISR, and the unfence rules are
 * the production ones. Compiled to a directory no class path names;
 * {@code io.metaquorum.sim.mutation.MutantClassLoader} loads it in place of the production
 * class. Same members as the production class.
 */
final class PartitionChanges {
    private PartitionChanges() {
    }

    /** The changes after {@code brokerId} was fenced; {@code cluster} already shows it fenced. */
    static List<MetadataRecord> afterFence(TopicsImage topics, ClusterImage cluster, int brokerId) {
        List<MetadataRecord> records = new ArrayList<>();
        for (TopicImage topic : topics.sortedByName()) {
            for (int index = 0; index < topic.partitionCount(); index++) {
                PartitionRegistration p = topic.partition(index);
                // The broken decision: a partition the fenced broker leads is not changed.
                if (!p.inIsr(brokerId) || p.leader() == brokerId) {
                    continue;
                }
                int[] isr = p.isr().length > 1 ? Arrays.stream(p.isr()).filter(id -> id != brokerId).toArray()
                        : p.isr();
                int leader = p.leader() == brokerId ? firstLive(p.replicas(), isr, cluster) : p.leader();
                if (!Arrays.equals(isr, p.isr()) || leader != p.leader()) {
                    records.add(change(topic, index, p, isr, leader));
                }
            }
        }
        return records;
    }

    /** The changes after {@code brokerId} was unfenced; {@code cluster} already shows it unfenced. */
    static List<MetadataRecord> afterUnfence(TopicsImage topics, int brokerId) {
        List<MetadataRecord> records = new ArrayList<>();
        for (TopicImage topic : topics.sortedByName()) {
            for (int index = 0; index < topic.partitionCount(); index++) {
                PartitionRegistration p = topic.partition(index);
                if (!p.hasReplica(brokerId)) {
                    continue;
                }
                int[] isr;
                int leader;
                if (p.leader() == PartitionRegistration.NO_LEADER) {
                    // Offline: only a member of the last ISR may lead again (no unclean election).
                    isr = p.isr();
                    leader = p.inIsr(brokerId) ? brokerId : PartitionRegistration.NO_LEADER;
                } else {
                    isr = p.inIsr(brokerId) ? p.isr() : inReplicaOrder(p.replicas(), p.isr(), brokerId);
                    leader = p.preferredLeader() == brokerId ? brokerId : p.leader();
                }
                if (!Arrays.equals(isr, p.isr()) || leader != p.leader()) {
                    records.add(change(topic, index, p, isr, leader));
                }
            }
        }
        return records;
    }

    private static int firstLive(int[] replicas, int[] isr, ClusterImage cluster) {
        for (int replica : replicas) {
            if (contains(isr, replica) && cluster.broker(replica) != null
                    && !cluster.broker(replica).fenced()) {
                return replica;
            }
        }
        return PartitionRegistration.NO_LEADER;
    }

    private static int[] inReplicaOrder(int[] replicas, int[] isr, int joining) {
        return Arrays.stream(replicas).filter(id -> id == joining || contains(isr, id))
                .toArray();
    }

    private static MetadataRecord change(TopicImage topic, int index, PartitionRegistration old, int[] isr,
                                         int leader) {
        PartitionChangeRecord.Builder change = PartitionChangeRecord.newBuilder().setTopicId(topic.id().toUuid())
                .setPartition(index).setPartitionEpoch(old.partitionEpoch() + 1)
                .setLeaderEpoch(leader != old.leader() ? old.leaderEpoch() + 1 : old.leaderEpoch());
        if (leader != old.leader()) {
            change.setLeader(leader);
        }
        if (!Arrays.equals(isr, old.isr())) {
            change.setHasIsr(true).addAllIsr(Arrays.stream(isr).boxed().toList());
        }
        return MetadataRecord.newBuilder().setPartitionChange(change).build();
    }

    private static boolean contains(int[] ids, int id) {
        for (int each : ids) {
            if (each == id) {
                return true;
            }
        }
        return false;
    }
}
