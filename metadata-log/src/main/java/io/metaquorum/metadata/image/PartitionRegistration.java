package io.metaquorum.metadata.image;

import java.util.Arrays;

/**
 * One partition's replica state (Kafka's {@code PartitionRegistration}). Arrays keep a
 * 1,000,000-partition image small; they are copied in and never handed out, so the object
 * is immutable, and {@code equals} compares contents.
 *
 * <p>Invariants: replicas non-empty and distinct; isr a subset of replicas; leader is -1 or
 * a member of isr; epochs &ge; 0.
 */
public final class PartitionRegistration {
    public static final int NO_LEADER = -1;

    private final int[] replicas;
    private final int[] isr;
    private final int leader;
    private final int leaderEpoch;
    private final int partitionEpoch;

    public PartitionRegistration(int[] replicas, int[] isr, int leader, int leaderEpoch, int partitionEpoch) {
        this(replicas.clone(), isr.clone(), leader, leaderEpoch, partitionEpoch, true);
    }

    private PartitionRegistration(int[] replicas, int[] isr, int leader, int leaderEpoch, int partitionEpoch,
                                  boolean owned) {
        this.replicas = replicas;
        this.isr = isr;
        this.leader = leader;
        this.leaderEpoch = leaderEpoch;
        this.partitionEpoch = partitionEpoch;
    }

    /** Takes the arrays without copying them: the caller made them and keeps no reference (replay). */
    static PartitionRegistration owning(int[] replicas, int[] isr, int leader, int leaderEpoch, int partitionEpoch) {
        return new PartitionRegistration(replicas, isr, leader, leaderEpoch, partitionEpoch, true);
    }

    public int[] replicas() {
        return replicas.clone();
    }

    public int[] isr() {
        return isr.clone();
    }

    public int replicaCount() {
        return replicas.length;
    }

    public int replica(int index) {
        return replicas[index];
    }

    public int preferredLeader() {
        return replicas[0];
    }

    public boolean hasReplica(int brokerId) {
        return contains(replicas, brokerId);
    }

    public boolean inIsr(int brokerId) {
        return contains(isr, brokerId);
    }

    public int leader() {
        return leader;
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    public int partitionEpoch() {
        return partitionEpoch;
    }

    static boolean contains(int[] ids, int id) {
        for (int each : ids) {
            if (each == id) {
                return true;
            }
        }
        return false;
    }

    /** What is wrong with these fields, or null when they satisfy the invariants. */
    static String violation(int[] replicas, int[] isr, int leader, int leaderEpoch, int partitionEpoch) {
        if (replicas.length == 0) {
            return "no replicas";
        }
        for (int i = 1; i < replicas.length; i++) {
            for (int j = 0; j < i; j++) {
                if (replicas[i] == replicas[j]) {
                    return "a broker listed twice in replicas " + Arrays.toString(replicas);
                }
            }
        }
        for (int id : isr) {
            if (!contains(replicas, id)) {
                return "isr " + Arrays.toString(isr) + " is not a subset of replicas " + Arrays.toString(replicas);
            }
        }
        if (leader != NO_LEADER && !contains(isr, leader)) {
            return "leader " + leader + " is not in isr " + Arrays.toString(isr);
        }
        if (leaderEpoch < 0 || partitionEpoch < 0) {
            return "negative epoch: leader epoch " + leaderEpoch + ", partition epoch " + partitionEpoch;
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartitionRegistration p && leader == p.leader && leaderEpoch == p.leaderEpoch
                && partitionEpoch == p.partitionEpoch && Arrays.equals(replicas, p.replicas)
                && Arrays.equals(isr, p.isr);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(replicas) * 31 + Arrays.hashCode(isr)) * 31 + leader) * 31 + leaderEpoch;
    }

    @Override
    public String toString() {
        return "Partition(replicas=" + Arrays.toString(replicas) + ", isr=" + Arrays.toString(isr) + ", leader="
                + leader + ", leaderEpoch=" + leaderEpoch + ", partitionEpoch=" + partitionEpoch + ")";
    }
}
