package io.metaquorum.metadata.controller.placement;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.BrokerRegistration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * Automatic replica placement, rack-aware (the job of Kafka's {@code StripedReplicaPlacer},
 * by a simpler method of its own):
 *
 * <ol>
 *   <li>The usable brokers are grouped by rack (racks sorted by name, a broker without a
 *       rack in the rack ""), each rack's brokers shuffled, and the racks interleaved into
 *       one ring: r0b0, r1b0, r2b0, r0b1, ...</li>
 *   <li>Partition p's first replica — its preferred and initial leader — is ring[(start + p)
 *       mod n]: consecutive partitions lead on consecutive ring positions, so leaders spread
 *       evenly over brokers and racks.</li>
 *   <li>The followers are taken walking the ring from an offset that changes after every n
 *       partitions (so followers spread too), first only from racks the partition does not
 *       use yet, then from any broker not yet chosen.</li>
 * </ol>
 *
 * <p>Deterministic: the only randomness is the injected source (shuffle, start, offset).
 * The caller has checked 1 &le; replication factor &le; usable brokers.
 */
public final class StripedReplicaPlacer {
    private final RandomGenerator random;

    public StripedReplicaPlacer(RandomGenerator random) {
        this.random = random;
    }

    /** Replica lists for {@code partitions} partitions of {@code replicationFactor} replicas on {@code usable}. */
    public List<int[]> place(List<BrokerRegistration> usable, int partitions, int replicationFactor) {
        Invariants.check(replicationFactor >= 1 && replicationFactor <= usable.size(),
                "replication factor %d on %d usable brokers", replicationFactor, usable.size());
        List<BrokerRegistration> ring = ring(usable);
        int n = ring.size();
        int start = random.nextInt(n);
        int shift = random.nextInt(n);
        List<int[]> placements = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            if (p > 0 && p % n == 0) {
                shift++;
            }
            int first = (start + p) % n;
            placements.add(replicas(ring, first, n > 1 ? 1 + shift % (n - 1) : 0, replicationFactor));
        }
        return placements;
    }

    private List<BrokerRegistration> ring(List<BrokerRegistration> usable) {
        TreeMap<String, List<BrokerRegistration>> byRack = new TreeMap<>();
        for (BrokerRegistration broker : usable) {
            byRack.computeIfAbsent(broker.rack(), rack -> new ArrayList<>()).add(broker);
        }
        List<List<BrokerRegistration>> racks = new ArrayList<>(byRack.values());
        int widest = 0;
        for (List<BrokerRegistration> rack : racks) {
            shuffle(rack);
            widest = Math.max(widest, rack.size());
        }
        int rackStart = random.nextInt(racks.size());
        List<BrokerRegistration> ring = new ArrayList<>(usable.size());
        for (int i = 0; i < widest; i++) {
            for (int r = 0; r < racks.size(); r++) {
                List<BrokerRegistration> rack = racks.get((rackStart + r) % racks.size());
                if (i < rack.size()) {
                    ring.add(rack.get(i));
                }
            }
        }
        return ring;
    }

    private int[] replicas(List<BrokerRegistration> ring, int first, int offset, int replicationFactor) {
        int n = ring.size();
        int[] replicas = new int[replicationFactor];
        boolean[] chosen = new boolean[n];
        Set<String> racksUsed = new LinkedHashSet<>();
        int racksTotal = (int) ring.stream().map(BrokerRegistration::rack).distinct().count();
        replicas[0] = ring.get(first).id();
        chosen[first] = true;
        racksUsed.add(ring.get(first).rack());
        int count = 1;
        for (int pass = 0; pass < 2 && count < replicationFactor; pass++) {
            for (int k = 0; k < n && count < replicationFactor; k++) {
                int index = (first + offset + k) % n;
                BrokerRegistration broker = ring.get(index);
                boolean newRack = !racksUsed.contains(broker.rack()) || racksUsed.size() == racksTotal;
                if (!chosen[index] && (pass == 1 || newRack)) {
                    replicas[count++] = broker.id();
                    chosen[index] = true;
                    racksUsed.add(broker.rack());
                }
            }
        }
        return replicas;
    }

    private void shuffle(List<BrokerRegistration> brokers) {
        for (int i = brokers.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            BrokerRegistration swap = brokers.get(i);
            brokers.set(i, brokers.get(j));
            brokers.set(j, swap);
        }
    }
}
