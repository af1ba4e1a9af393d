package io.metaquorum.raft;

import io.metaquorum.protocol.Uuid;
import java.nio.ByteBuffer;
import java.util.Base64;

/** The reserved topic ids of KIP-516 and their printed form (URL-safe base64, no padding). */
public final class TopicIds {
    /** "Unknown": never assigned to a topic. */
    public static final Uuid ZERO = uuid(0L, 0L);
    /** {@code __cluster_metadata}, Kafka's {@code METADATA_TOPIC_ID}. */
    public static final Uuid METADATA_TOPIC_ID = uuid(0L, 1L);
    public static final String METADATA_TOPIC_NAME = "__cluster_metadata";
    public static final int METADATA_PARTITION = 0;

    private TopicIds() {
    }

    public static Uuid uuid(long most, long least) {
        return Uuid.newBuilder().setMostSignificantBits(most).setLeastSignificantBits(least).build();
    }

    public static String toBase64(Uuid id) {
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /** Parses the 22-character form; throws {@link IllegalArgumentException} on anything else. */
    public static Uuid fromBase64(String text) {
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("an id is 16 bytes in URL-safe base64, got " + bytes.length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return uuid(buffer.getLong(), buffer.getLong());
    }
}
