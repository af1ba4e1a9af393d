package io.metaquorum.sim.system.admin;

import io.metaquorum.protocol.ErrorCode;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A definite answer to an {@link AdminInput}. Topic ids are their printed (base64) form.
 * Reads carry the metadata offset of the image they were served from.
 */
public sealed interface AdminOutput {
    /** The answer to a write: its code, and the topic id on a successful create or delete (else null). */
    record WriteResult(ErrorCode code, String topicId) implements AdminOutput {
        public static WriteResult ok(String topicId) {
            return new WriteResult(ErrorCode.NONE, topicId);
        }

        public static WriteResult failed(ErrorCode code) {
            return new WriteResult(code, null);
        }
    }

    /** What a describe showed of one topic: id, partition count, and the configs set on it. */
    record TopicView(String topicId, int partitions, SortedMap<String, String> configs) {
        public TopicView {
            configs = Collections.unmodifiableSortedMap(new TreeMap<>(configs));
        }
    }

    /** The answer to a describe: NONE with the topic, or UNKNOWN_TOPIC_OR_PARTITION with null. */
    record Described(ErrorCode code, TopicView topic, long offset) implements AdminOutput {
    }

    /** The answer to a list: every topic's id by name. */
    record Listed(SortedMap<String, String> idsByName, long offset) implements AdminOutput {
        public Listed {
            idsByName = Collections.unmodifiableSortedMap(new TreeMap<>(idsByName));
        }
    }

    /** A {@link Listed} seen from one name: its id, or null when the list did not hold it. */
    record NameListing(String topicId, long offset) implements AdminOutput {
    }
}
