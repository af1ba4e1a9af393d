package io.metaquorum.sim.system.admin;

import io.metaquorum.sim.system.admin.AdminInput.ConfigChange;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The sequential state of one topic name in {@link AdminModel}: absent, or a topic with an
 * id (null while no answer has told it: the create that made it timed out), a partition
 * count and the configs set on it; and the highest metadata offset a read linearized so far
 * was served at (reads in linearization order see offsets that never go back).
 *
 * <p>Immutable, value equality (the checker memoizes on it).
 */
public record TopicSlot(boolean exists, String topicId, int partitions, SortedMap<String, String> configs,
                        long readFloor) {
    public static final TopicSlot ABSENT = new TopicSlot(false, null, 0, new TreeMap<>(), -1);

    public TopicSlot {
        configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
    }

    TopicSlot created(String id, int count, SortedMap<String, String> topicConfigs) {
        return new TopicSlot(true, id, count, topicConfigs, readFloor);
    }

    TopicSlot deleted() {
        return new TopicSlot(false, null, 0, new TreeMap<>(), readFloor);
    }

    TopicSlot withPartitions(int count) {
        return new TopicSlot(exists, topicId, count, configs, readFloor);
    }

    TopicSlot withChanges(List<ConfigChange> changes) {
        TreeMap<String, String> next = new TreeMap<>(configs);
        for (ConfigChange change : changes) {
            if (change.value() == null) {
                next.remove(change.key());
            } else {
                next.put(change.key(), change.value());
            }
        }
        return new TopicSlot(exists, topicId, partitions, next, readFloor);
    }

    /** The id is the one given, or was unknown and is now bound to it. */
    boolean idMatches(String id) {
        return topicId == null || topicId.equals(id);
    }

    TopicSlot withId(String id) {
        return new TopicSlot(exists, id, partitions, configs, readFloor);
    }

    TopicSlot readAt(long offset) {
        return new TopicSlot(exists, topicId, partitions, configs, Math.max(readFloor, offset));
    }
}
