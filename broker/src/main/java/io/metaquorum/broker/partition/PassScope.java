package io.metaquorum.broker.partition;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.TopicChange;
import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.metadata.image.UuidKey;
import io.vavr.Tuple2;
import java.util.Iterator;
import java.util.TreeMap;

/** The topics one {@link PartitionReconciler} pass looks at, each with what to look at in it. */
final class PassScope {
    private PassScope() {
    }

    /**
     * Every topic of the image and every topic with a live directory here, each to be looked at
     * whole: O(image), for the passes that have nothing to go by.
     */
    static TreeMap<UuidKey, TopicChange> everyTopic(TopicsImage topics, LocalPartitions local) {
        TreeMap<UuidKey, TopicChange> scope = new TreeMap<>();
        for (Iterator<UuidKey> ids = topics.byId().keysIterator(); ids.hasNext(); ) {
            scope.put(ids.next(), TopicChange.WHOLE);
        }
        for (UuidKey id : local.liveTopicIds()) {
            scope.put(id, TopicChange.WHOLE);
        }
        return scope;
    }

    /**
     * The topics {@code update} lists as changed since the last complete pass (at
     * {@code settledOffset}), and those a pass cut short left {@code unfinished}: O(change).
     */
    static TreeMap<UuidKey, TopicChange> changedTopics(ImageUpdate update, long settledOffset,
                                                      TreeMap<UuidKey, TopicChange> unfinished) {
        Invariants.check(update.baseOffset() <= settledOffset && settledOffset <= update.offset(),
                "the changes from offset %d to %d cannot bring the directories from offset %d",
                update.baseOffset(), update.offset(), settledOffset);
        TreeMap<UuidKey, TopicChange> scope = new TreeMap<>(unfinished);
        for (Tuple2<UuidKey, TopicChange> topic : update.topics().byId()) {
            scope.merge(topic._1, topic._2, TopicChange::union);
        }
        return scope;
    }
}
