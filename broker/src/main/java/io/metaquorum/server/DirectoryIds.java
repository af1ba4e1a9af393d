package io.metaquorum.server;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;

/**
 * Directory ids (KIP-853) in Kafka's printed form, as cluster ids: 22 characters of URL-safe
 * base64. {@code mq-storage format} makes a random one per directory ({@link ClusterIds#random}).
 */
public final class DirectoryIds {
    private DirectoryIds() {
    }

    public static Uuid random() {
        return TopicIds.fromBase64(ClusterIds.random());
    }

    /** Throws {@link IllegalArgumentException} saying what is wrong with {@code text}. */
    public static Uuid parse(String text) {
        Uuid id;
        try {
            if (text.length() != 22) {
                throw new IllegalArgumentException("length " + text.length());
            }
            id = TopicIds.fromBase64(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a directory id is 22 characters of URL-safe base64 "
                    + "(make one with mq-storage random-uuid), got '" + text + "'");
        }
        if (id.equals(TopicIds.ZERO) || id.equals(TopicIds.METADATA_TOPIC_ID)) {
            throw new IllegalArgumentException("directory id '" + text + "' is a reserved id");
        }
        return id;
    }
}
