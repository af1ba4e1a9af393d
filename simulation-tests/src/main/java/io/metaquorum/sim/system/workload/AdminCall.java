package io.metaquorum.sim.system.workload;

import io.metaquorum.metadata.controller.ConfigurationControlManager.AlterConfigsResource;
import io.metaquorum.metadata.controller.CreateTopicsRequest;
import io.metaquorum.metadata.controller.ReplicationControlManager.CreatePartitionsTopic;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * One admin call of the seeded workload, in the controller's own request types, so that a
 * simulated node hands it to the real {@code QuorumController} unchanged. A call has items
 * (topics, config resources) that succeed or fail one by one; a retry re-sends only the items
 * still retriable ({@link #withItems}).
 */
public sealed interface AdminCall {
    /** The key of each item, in the order results come back (a name given twice is one item). */
    List<String> items();

    /** The same call for the items whose key is in {@code keys} only. */
    AdminCall withItems(List<String> keys);

    /** Whether the call writes records (reads never do). */
    default boolean writes() {
        return true;
    }

    record CreateTopics(CreateTopicsRequest request) implements AdminCall {
        @Override
        public List<String> items() {
            return new ArrayList<>(new LinkedHashSet<>(request.topics().stream().map(CreateTopicsRequest.Topic::name)
                    .toList()));
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return new CreateTopics(new CreateTopicsRequest(request.topics().stream()
                    .filter(t -> keys.contains(t.name())).toList(), request.validateOnly()));
        }
    }

    record DeleteTopics(List<String> names) implements AdminCall {
        public DeleteTopics {
            names = List.copyOf(names);
        }

        @Override
        public List<String> items() {
            return new ArrayList<>(new LinkedHashSet<>(names));
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return new DeleteTopics(names.stream().filter(keys::contains).toList());
        }
    }

    record CreatePartitions(List<CreatePartitionsTopic> topics) implements AdminCall {
        public CreatePartitions {
            topics = List.copyOf(topics);
        }

        @Override
        public List<String> items() {
            return new ArrayList<>(new LinkedHashSet<>(topics.stream().map(CreatePartitionsTopic::name).toList()));
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return new CreatePartitions(topics.stream().filter(t -> keys.contains(t.name())).toList());
        }
    }

    record AlterConfigs(List<AlterConfigsResource> resources) implements AdminCall {
        public AlterConfigs {
            resources = List.copyOf(resources);
        }

        @Override
        public List<String> items() {
            return new ArrayList<>(new LinkedHashSet<>(resources.stream().map(r -> r.resource().name()).toList()));
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return new AlterConfigs(resources.stream().filter(r -> keys.contains(r.resource().name())).toList());
        }
    }

    record DescribeTopic(String name) implements AdminCall {
        @Override
        public List<String> items() {
            return List.of(name);
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return this;
        }

        @Override
        public boolean writes() {
            return false;
        }
    }

    record ListTopics() implements AdminCall {
        /** The one item of a list. */
        public static final String ITEM = "*";

        @Override
        public List<String> items() {
            return List.of(ITEM);
        }

        @Override
        public AdminCall withItems(List<String> keys) {
            return this;
        }

        @Override
        public boolean writes() {
            return false;
        }
    }
}
