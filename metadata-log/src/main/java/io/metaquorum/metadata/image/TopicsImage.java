package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every topic by id, and the ids by name, on persistent maps, so one change to a huge image
 * copies only the paths it touches (Kafka's {@code TopicsImage}). Names map to ids rather
 * than to the topics so that a partition change updates one map, not two.
 *
 * <p>Invariant: {@code byName} maps exactly the names of the topics in {@code byId} to their ids.
 */
public record TopicsImage(HashMap<UuidKey, TopicImage> byId, HashMap<String, UuidKey> byName) {
    public static final TopicsImage EMPTY = new TopicsImage(HashMap.empty(), HashMap.empty());

    public TopicImage topic(UuidKey id) {
        return byId.get(id).getOrNull();
    }

    public TopicImage topic(String name) {
        UuidKey id = byName.get(name).getOrNull();
        return id == null ? null : byId.get(id).getOrNull();
    }

    public int topicCount() {
        return byId.size();
    }

    /** The topics sorted by name: the order tools print and snapshots write. */
    public List<TopicImage> sortedByName() {
        List<TopicImage> topics = new ArrayList<>(byId.size());
        byId.values().forEach(topics::add);
        topics.sort(Comparator.comparing(TopicImage::name));
        return topics;
    }

    /** Adds a new topic. */
    TopicsImage withNewTopic(TopicImage topic) {
        return new TopicsImage(byId.put(topic.id(), topic), byName.put(topic.name(), topic.id()));
    }

    /** Replaces an existing topic (same id, same name), e.g. after a partition change. */
    TopicsImage withChangedTopic(TopicImage topic) {
        return new TopicsImage(byId.put(topic.id(), topic), byName);
    }

    TopicsImage withoutTopic(TopicImage topic) {
        return new TopicsImage(byId.remove(topic.id()), byName.remove(topic.name()));
    }
}
