package io.metaquorum.cli;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.CreatableReplicaAssignment;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicConfig;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.CreatePartitionsAssignment;
import io.metaquorum.protocol.CreatePartitionsTopic;
import io.metaquorum.protocol.CreatePartitionsTopicResult;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DescribedTopic;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.TopicRef;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What {@code mq-topics} does once its arguments passed the checks: one admin call per action. */
final class TopicsActions {
    private final TopicsTool options;
    private final AdminClient client;
    private final PrintWriter out;
    private final PrintWriter err;
    private final List<String> topics;
    private int failures;

    TopicsActions(TopicsTool options, AdminClient client, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.client = client;
        this.out = out;
        this.err = err;
        this.topics = TopicArguments.topics(options.topicNames);
    }

    int run() {
        if (options.create) {
            create();
        } else if (options.list) {
            list();
        } else if (options.describe) {
            describe();
        } else if (options.delete) {
            delete();
        } else {
            alter();
        }
        return failures == 0 ? CommandLines.EXIT_OK : CommandLines.EXIT_FAILURE;
    }

    private void failed(ErrorCode code, int number, String message) {
        failures++;
        err.println(AdminError.line(code, number, message));
    }

    private void create() {
        List<CreatableTopic> requests = new ArrayList<>();
        for (String name : topics) {
            requests.add(creatable(name));
        }
        for (CreatableTopicResult result : client.createTopics(requests, options.validateOnly,
                TopicsTool.CALL_TIMEOUT_MS)) {
            ErrorCode code = result.getErrorCode();
            if (code == ErrorCode.NONE) {
                out.println(options.validateOnly ? "Topic " + result.getName() + " can be created (--validate-only: "
                        + "nothing was created)." : "Created topic " + result.getName() + ".");
            } else if (!(code == ErrorCode.TOPIC_ALREADY_EXISTS && options.ifNotExists)) {
                failed(code, result.getErrorCodeValue(), result.getErrorMessage());
            }
        }
    }

    private CreatableTopic creatable(String name) {
        CreatableTopic.Builder topic = CreatableTopic.newBuilder().setName(name);
        if (options.partitions != null) {
            topic.setNumPartitions(options.partitions);
        }
        if (options.replicationFactor != null) {
            topic.setReplicationFactor(options.replicationFactor);
        }
        if (options.replicaAssignment != null) {
            List<List<Integer>> assignment = TopicArguments.replicaAssignment(options.replicaAssignment);
            for (int partition = 0; partition < assignment.size(); partition++) {
                topic.addAssignments(CreatableReplicaAssignment.newBuilder().setPartitionIndex(partition)
                        .addAllBrokerIds(assignment.get(partition)));
            }
        }
        for (Map.Entry<String, String> config : TopicArguments.configs(options.configs).entrySet()) {
            topic.addConfigs(CreatableTopicConfig.newBuilder().setName(config.getKey()).setValue(config.getValue()));
        }
        return topic.build();
    }

    private void list() {
        Set<String> only = new LinkedHashSet<>(topics);
        client.listTopics(TopicsTool.CALL_TIMEOUT_MS).stream().map(ListedTopic::getName)
                .filter(name -> only.isEmpty() || only.contains(name)).sorted().forEach(out::println);
    }

    private void describe() {
        if (topics.isEmpty()) {
            describeAll();
            return;
        }
        List<DescribedTopic> described = new ArrayList<>();
        for (DescribedTopic topic : client.describeTopics(refs(topics), TopicsTool.CALL_TIMEOUT_MS)) {
            if (topic.getErrorCode() == ErrorCode.NONE) {
                described.add(topic);
            } else if (!(isMissing(topic.getErrorCode()) && options.ifExists)) {
                failed(topic.getErrorCode(), topic.getErrorCodeValue(), topic.getErrorMessage());
            }
        }
        described.sort(Comparator.comparing(DescribedTopic::getName));
        if (options.json) {
            out.println(TopicDescriptions.json(described));
        } else {
            described.forEach(topic -> out.print(TopicDescriptions.text(topic)));
        }
    }

    /**
     * Every topic, printed as it arrives from a paged describe (name order, the order the
     * one-list form sorts to), so that memory is a page and one topic whatever the cluster holds.
     */
    private void describeAll() {
        if (options.json) {
            out.print(TopicDescriptions.JSON_START);
        }
        boolean[] first = {true};
        client.describeAllTopics(AdminClient.DESCRIBE_PAGE_PARTITIONS, TopicsTool.CALL_TIMEOUT_MS, topic -> {
            if (options.json) {
                out.print((first[0] ? "" : TopicDescriptions.JSON_SEPARATOR) + TopicDescriptions.json(topic));
            } else {
                out.print(TopicDescriptions.text(topic));
            }
            first[0] = false;
        });
        if (options.json) {
            out.println(TopicDescriptions.JSON_END);
        }
    }

    private void delete() {
        for (DeletableTopicResult result : client.deleteTopics(refs(topics), TopicsTool.CALL_TIMEOUT_MS)) {
            if (result.getErrorCode() == ErrorCode.NONE) {
                out.println("Deleted topic " + result.getName() + ".");
            } else if (!(isMissing(result.getErrorCode()) && options.ifExists)) {
                failed(result.getErrorCode(), result.getErrorCodeValue(), result.getErrorMessage());
            }
        }
    }

    private void alter() {
        List<CreatePartitionsTopic> requests = new ArrayList<>();
        for (String name : topics) {
            CreatePartitionsTopic.Builder topic = CreatePartitionsTopic.newBuilder().setName(name)
                    .setCount(options.partitions);
            if (options.replicaAssignment != null && !addNewAssignments(name, topic)) {
                continue;
            }
            requests.add(topic.build());
        }
        for (CreatePartitionsTopicResult result : client.createPartitions(requests, options.validateOnly,
                TopicsTool.CALL_TIMEOUT_MS)) {
            if (result.getErrorCode() == ErrorCode.NONE) {
                out.println((options.validateOnly ? "Topic " + result.getName() + " can have "
                        : "Altered topic " + result.getName() + ": now ") + options.partitions + " partitions"
                        + (options.validateOnly ? " (--validate-only: nothing was changed)." : "."));
            } else if (!(isMissing(result.getErrorCode()) && options.ifExists)) {
                failed(result.getErrorCode(), result.getErrorCodeValue(), result.getErrorMessage());
            }
        }
    }

    /**
     * {@code --replica-assignment} with {@code --alter} lists every partition; the request
     * carries the new ones only, so the topic's current count is asked first. False (and
     * reported) when the topic cannot be grown so.
     */
    private boolean addNewAssignments(String name, CreatePartitionsTopic.Builder topic) {
        DescribedTopic current = client.describeTopics(refs(List.of(name)), TopicsTool.CALL_TIMEOUT_MS).get(0);
        if (current.getErrorCode() != ErrorCode.NONE) {
            if (!(isMissing(current.getErrorCode()) && options.ifExists)) {
                failed(current.getErrorCode(), current.getErrorCodeValue(), current.getErrorMessage());
            }
            return false;
        }
        int existing = current.getPartitionsCount();
        if (options.partitions <= existing) {
            failed(ErrorCode.INVALID_PARTITIONS, ErrorCode.INVALID_PARTITIONS_VALUE, "Topic '" + name + "' has "
                    + existing + " partitions; --alter --partitions only grows it, got " + options.partitions + ".");
            return false;
        }
        List<List<Integer>> assignment = TopicArguments.replicaAssignment(options.replicaAssignment);
        for (List<Integer> replicas : assignment.subList(existing, assignment.size())) {
            topic.addAssignments(CreatePartitionsAssignment.newBuilder().addAllBrokerIds(replicas));
        }
        return true;
    }

    private static boolean isMissing(ErrorCode code) {
        return code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION || code == ErrorCode.UNKNOWN_TOPIC_ID;
    }

    private static List<TopicRef> refs(List<String> names) {
        return names.stream().map(name -> TopicRef.newBuilder().setName(name).build()).toList();
    }
}
