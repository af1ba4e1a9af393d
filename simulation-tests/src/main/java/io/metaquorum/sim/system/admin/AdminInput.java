package io.metaquorum.sim.system.admin;

import io.metaquorum.common.invariant.Invariants;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One admin request as the server sees it, reduced to what the sequential model of
 * {@link AdminModel} needs. A CreateTopics or DeleteTopics batch is recorded as one input per
 * topic: each topic of a batch succeeds or fails on its own (the batch's atomic append is not
 * checked here).
 */
public sealed interface AdminInput {
    /** The topic the input is about; null for {@link ListTopics}. */
    String topic();

    /**
     * Create {@code name} with {@code partitions} (the count it gets, defaults resolved) and
     * {@code configs}; under {@code validateOnly} nothing is created.
     */
    record CreateTopic(String topic, int partitions, SortedMap<String, String> configs, boolean validateOnly)
            implements AdminInput {
        public CreateTopic {
            configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
        }
    }

    record DeleteTopic(String topic) implements AdminInput {
    }

    /** Grow {@code topic} to {@code count} partitions. */
    record CreatePartitions(String topic, int count) implements AdminInput {
    }

    /** One config change: set {@code key} to {@code value}, or delete it when {@code value} is null. */
    record ConfigChange(String key, String value) {
    }

    record AlterConfigs(String topic, List<ConfigChange> changes) implements AdminInput {
        public AlterConfigs {
            Invariants.check(!changes.isEmpty(), "an alter-configs input changes something");
            changes = List.copyOf(changes);
        }
    }

    /** Read one topic: its id, partition count and configs. */
    record DescribeTopic(String topic) implements AdminInput {
    }

    /** Read every topic's name and id. */
    record ListTopics() implements AdminInput {
        @Override
        public String topic() {
            return null;
        }
    }

    /** A {@link ListTopics} seen from one topic name only (made by {@link AdminPartitioner}). */
    record NameListed(String topic) implements AdminInput {
    }
}
