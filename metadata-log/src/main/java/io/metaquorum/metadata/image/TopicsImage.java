package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.pcollections.TreePMap;

/**
 * Every topic by id, and the ids by name, on persistent maps, so one change to a huge image
 * copies only the paths it touches (Kafka's {@code TopicsImage}). Names map to ids rather
 * than to the topics so that a partition change updates one map, not two. The name map is
 * sorted (a persistent balanced tree), so readers walk the topics in name order, or from
 * any name on, without copying or sorting the image: the order tools print, snapshots
 * write and a paged DescribeTopics resumes in.
 *
 * <p>Invariant: {@code byName} maps exactly the names of the topics in {@code byId} to their ids.
 */
public record TopicsImage(HashMap<UuidKey, TopicImage> byId, TreePMap<String, UuidKey> byName) {
    public static final TopicsImage EMPTY = new TopicsImage(HashMap.empty(), TreePMap.empty());

    public TopicImage topic(UuidKey id) {
        return byId.get(id).getOrNull();
    }

    public TopicImage topic(String name) {
        UuidKey id = byName.get(name);
        return id == null ? null : byId.get(id).getOrNull();
    }

    public int topicCount() {
        return byId.size();
    }

    /** The topics sorted by name, as a list (a walk of the name index; nothing is sorted). */
    public List<TopicImage> sortedByName() {
        List<TopicImage> topics = new ArrayList<>(byId.size());
        topicsFrom("").forEachRemaining(topics::add);
        return topics;
    }

    /**
     * The topics whose names are {@code >= fromName}, in name order ({@link String#compareTo}),
     * read lazily from this image: O(log n) to start, O(1) memory besides the tree path.
     */
    public Iterator<TopicImage> topicsFrom(String fromName) {
        Iterator<Map.Entry<String, UuidKey>> names = byName.tailMap(fromName, true).entrySet().iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return names.hasNext();
            }

            @Override
            public TopicImage next() {
                return byId.get(names.next().getValue()).get();
            }
        };
    }

    /** Adds a new topic. */
    TopicsImage withNewTopic(TopicImage topic) {
        return new TopicsImage(byId.put(topic.id(), topic), byName.plus(topic.name(), topic.id()));
    }

    /** Replaces an existing topic (same id, same name), e.g. after a partition change. */
    TopicsImage withChangedTopic(TopicImage topic) {
        return new TopicsImage(byId.put(topic.id(), topic), byName);
    }

    TopicsImage withoutTopic(TopicImage topic) {
        return new TopicsImage(byId.remove(topic.id()), byName.minus(topic.name()));
    }
}
