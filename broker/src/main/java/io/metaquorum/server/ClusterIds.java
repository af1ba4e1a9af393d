package io.metaquorum.server;

import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * Cluster ids in Kafka's printed form: the 16 bytes of a random (version 4) UUID in URL-safe
 * base64 without padding, 22 characters. The reserved ids (all zero, and the metadata
 * topic's sentinel) are never produced, nor one starting with '-' (it would read as an
 * option on a command line; Kafka avoids it the same way).
 */
public final class ClusterIds {
    private static final int ATTEMPTS_MAX = 100;

    private ClusterIds() {
    }

    public static String random() {
        return random(new SecureRandom());
    }

    static String random(RandomGenerator random) {
        for (int attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
            long most = (random.nextLong() & ~0xF000L) | 0x4000L;
            long least = (random.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L;
            Uuid uuid = TopicIds.uuid(most, least);
            String text = TopicIds.toBase64(uuid);
            if (!isReserved(uuid) && !text.startsWith("-")) {
                return text;
            }
        }
        throw new IllegalStateException("no usable random id in " + ATTEMPTS_MAX + " attempts");
    }

    /**
     * Checks a cluster id given on a command line; returns it or throws
     * {@link IllegalArgumentException} saying what is wrong.
     */
    public static String validate(String text) {
        Uuid uuid;
        try {
            if (text.length() != 22) {
                throw new IllegalArgumentException("length " + text.length());
            }
            uuid = TopicIds.fromBase64(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cluster id '" + text
                    + "' is not 22 characters of URL-safe base64 (make one with mq-storage random-uuid)");
        }
        if (isReserved(uuid)) {
            throw new IllegalArgumentException("cluster id '" + text + "' is a reserved id");
        }
        return text;
    }

    private static boolean isReserved(Uuid uuid) {
        return uuid.equals(TopicIds.ZERO) || uuid.equals(TopicIds.METADATA_TOPIC_ID);
    }
}
