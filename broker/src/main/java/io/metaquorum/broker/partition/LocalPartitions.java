package io.metaquorum.broker.partition;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.UuidKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reconciler's picture of what is under the log dirs: the live partition directories by
 * topic id and partition, the strays waiting for deletion, and the names of the entries it
 * leaves alone. Built by a scan, then kept up to date by the reconciler's own successful
 * operations (nothing else is expected to write under {@code log.dirs}); thrown away after a
 * failed operation, when it can no longer be trusted.
 *
 * <p>Invariants: {@code liveCount[d]} is the number of live directories in log dir d; at most
 * one live directory per partition; a location is live, stray or foreign, never two of these;
 * {@code strays} and {@code straysByStagedAt} hold the same strays.
 */
final class LocalPartitions {
    private static final Comparator<StrayDir> BY_STAGED_AT = Comparator.comparingLong(StrayDir::stagedAtMs)
            .thenComparing(StrayDir::location);

    private final TreeMap<UuidKey, TreeMap<Integer, DirLocation>> live = new TreeMap<>();
    private final int[] liveCount;
    private final TreeMap<DirLocation, StrayDir> strays = new TreeMap<>();
    /**
     * The same strays by staging time, then location: the ones due for deletion are the first
     * ones (every stray waits the same delay), so a pass finds them without a look at the rest.
     */
    private final TreeSet<StrayDir> straysByStagedAt = new TreeSet<>(BY_STAGED_AT);
    /** Strays whose topic id is known, so a partition that comes back can take its directory back. */
    private final TreeMap<PartitionKey, TreeSet<DirLocation>> straysByPartition = new TreeMap<>();
    /** Entries under each log dir that are neither partitions nor strays: their names are taken. */
    private final List<TreeSet<String>> foreign = new ArrayList<>();
    /** Live directories written and not yet published. */
    final UnpublishedDirs unpublished = new UnpublishedDirs();

    LocalPartitions(int logDirCount) {
        liveCount = new int[logDirCount];
        for (int i = 0; i < logDirCount; i++) {
            foreign.add(new TreeSet<>());
        }
    }

    DirLocation live(UuidKey topicId, int partition) {
        TreeMap<Integer, DirLocation> partitions = live.get(topicId);
        return partitions == null ? null : partitions.get(partition);
    }

    /** The live partitions of one topic by index (a copy: the caller removes while iterating). */
    NavigableMap<Integer, DirLocation> liveOf(UuidKey topicId) {
        TreeMap<Integer, DirLocation> partitions = live.get(topicId);
        return partitions == null ? new TreeMap<>() : new TreeMap<>(partitions);
    }

    /** The ids of the topics with at least one live directory. */
    Iterable<UuidKey> liveTopicIds() {
        return live.keySet();
    }

    int liveCount() {
        int total = 0;
        for (int count : liveCount) {
            total += count;
        }
        return total;
    }

    void addLive(UuidKey topicId, int partition, DirLocation location) {
        DirLocation previous = live.computeIfAbsent(topicId, id -> new TreeMap<>()).put(partition, location);
        Invariants.check(previous == null, "partition %d of topic %s is live twice: %s and %s", partition, topicId,
                previous, location);
        liveCount[location.logDir()]++;
    }

    void removeLive(UuidKey topicId, int partition) {
        TreeMap<Integer, DirLocation> partitions = live.get(topicId);
        DirLocation removed = partitions == null ? null : partitions.remove(partition);
        Invariants.check(removed != null, "partition %d of topic %s is not live", partition, topicId);
        if (partitions.isEmpty()) {
            live.remove(topicId);
        }
        liveCount[removed.logDir()]--;
    }

    /** The directories of {@code batch} still live where it wrote them (not deleted or staged since), in its order. */
    List<PartitionStore.NewPartition> stillLive(UnpublishedDirs.Batch batch) {
        List<PartitionStore.NewPartition> still = new ArrayList<>(batch.dirs().size());
        for (UnpublishedDirs.Dir dir : batch.dirs()) {
            if (new DirLocation(batch.logDir(), dir.written().dir()).equals(live(dir.topicId(), dir.partition()))) {
                still.add(dir.written());
            }
        }
        return still;
    }

    void addStray(StrayDir stray) {
        Invariants.check(strays.put(stray.location(), stray) == null, "stray %s added twice", stray.location());
        straysByStagedAt.add(stray);
        if (stray.topicId() != null) {
            straysByPartition.computeIfAbsent(new PartitionKey(stray.topicId(), stray.partition()),
                    key -> new TreeSet<>()).add(stray.location());
        }
    }

    void removeStray(StrayDir stray) {
        strays.remove(stray.location());
        straysByStagedAt.remove(stray);
        if (stray.topicId() != null) {
            PartitionKey key = new PartitionKey(stray.topicId(), stray.partition());
            TreeSet<DirLocation> locations = straysByPartition.get(key);
            locations.remove(stray.location());
            if (locations.isEmpty()) {
                straysByPartition.remove(key);
            }
        }
    }

    /** A stray that held exactly this partition of this topic id, or null. */
    StrayDir strayOf(UuidKey topicId, int partition) {
        TreeSet<DirLocation> locations = straysByPartition.get(new PartitionKey(topicId, partition));
        return locations == null ? null : strays.get(locations.first());
    }

    /**
     * The strays whose deadline ({@code delayMs} after staging) is at or before {@code nowMs},
     * in location order (a copy: the caller deletes while iterating). Costs the due strays, not
     * all of them.
     */
    List<StrayDir> dueStrays(long nowMs, long delayMs) {
        List<StrayDir> due = new ArrayList<>();
        for (StrayDir stray : straysByStagedAt) {
            if (stray.deadlineMs(delayMs) > nowMs) {
                break;
            }
            due.add(stray);
        }
        due.sort(Comparator.comparing(StrayDir::location));
        return due;
    }

    /** Forgets the strays in log dir {@code dir} (it went offline: they wait there for a restart). */
    void forgetStraysIn(int dir) {
        for (StrayDir stray : new ArrayList<>(strays.values())) {
            if (stray.location().logDir() == dir) {
                removeStray(stray);
            }
        }
    }

    /** The stray staged first (so the first due), or null when there is none. */
    StrayDir firstStaged() {
        return straysByStagedAt.isEmpty() ? null : straysByStagedAt.first();
    }

    int strayCount() {
        return strays.size();
    }

    void addForeign(DirLocation location) {
        foreign.get(location.logDir()).add(location.name());
    }

    /**
     * True when a stray or a foreign entry already has this name in this log dir. (A live
     * directory cannot: two live directories with one name would be two topics with one name
     * in one image.)
     */
    boolean isTaken(DirLocation location) {
        return foreign.get(location.logDir()).contains(location.name()) || strays.containsKey(location);
    }

    /** The live partitions in log dir {@code dir}, in key order. */
    List<PartitionKey> liveIn(int dir) {
        List<PartitionKey> in = new ArrayList<>();
        for (Map.Entry<UuidKey, TreeMap<Integer, DirLocation>> topic : live.entrySet()) {
            for (Map.Entry<Integer, DirLocation> partition : topic.getValue().entrySet()) {
                if (partition.getValue().logDir() == dir) {
                    in.add(new PartitionKey(topic.getKey(), partition.getKey()));
                }
            }
        }
        return in;
    }

    /**
     * The log dir for a new partition directory named {@code name}: the one not {@code offline}
     * with the fewest live partitions (ties: the first in {@code log.dirs} order) where the name
     * is free; -1 when there is none.
     */
    int placement(String name, Set<Integer> offline) {
        int best = -1;
        for (int dir = 0; dir < liveCount.length; dir++) {
            if (offline.contains(dir) || isTaken(new DirLocation(dir, name))) {
                continue;
            }
            if (best < 0 || liveCount[dir] < liveCount[best]) {
                best = dir;
            }
        }
        return best;
    }
}
