package io.metaquorum.metadata.controller;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One result per distinct topic name of the request, in the order the names first appear. */
public record CreateTopicsResponse(List<TopicResult> topics) {
    public CreateTopicsResponse {
        topics = List.copyOf(topics);
    }

    /** The result of the topic named {@code name}, or null when the request did not name it. */
    public TopicResult topic(String name) {
        return topics.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * One topic's result: on success its id (the zero id under validate-only), partitions,
     * replication factor and the configs set on it, sorted by name.
     */
    public record TopicResult(String name, ApiError error, Uuid topicId, int numPartitions, int replicationFactor,
                              Map<String, String> configs) {
        public TopicResult {
            configs = Collections.unmodifiableMap(new TreeMap<>(configs));
        }

        static TopicResult failed(String name, ApiError error) {
            return new TopicResult(name, error, TopicIds.ZERO, -1, -1, new TreeMap<>());
        }
    }
}
