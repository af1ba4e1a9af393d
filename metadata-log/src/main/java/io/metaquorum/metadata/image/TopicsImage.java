package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every topic by id and by name, on persistent maps, so one change to a huge image copies
 * only the paths it touches (Kafka's {@code TopicsImage}).
 *
 * <p>Invariant: {@code byId} and {@code byName} hold the same topics.
 */
public record TopicsImage(HashMap<UuidKey, TopicImage> byId, HashMap<String, TopicImage> byName) {
    public static final TopicsImage EMPTY = new TopicsImage(HashMap.empty(), HashMap.empty());

    public TopicImage topic(UuidKey id) {
        return byId.get(id).getOrNull();
    }

    public TopicImage topic(String name) {
        return byName.get(name).getOrNull();
    }

    public int topicCount() {
        return byId.size();
    }

    /** The topics sorted by name: the order tools print and snapshots write. */
    public List<TopicImage> sortedByName() {
        List<TopicImage> topics = new ArrayList<>(byName.size());
        byName.values().forEach(topics::add);
        topics.sort(Comparator.comparing(TopicImage::name));
        return topics;
    }

    TopicsImage withTopic(TopicImage topic) {
        return new TopicsImage(byId.put(topic.id(), topic), byName.put(topic.name(), topic));
    }

    TopicsImage withoutTopic(TopicImage topic) {
        return new TopicsImage(byId.remove(topic.id()), byName.remove(topic.name()));
    }
}
