package io.metaquorum.broker.partition;

import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import java.nio.charset.StandardCharsets;

/**
 * The {@code partition.metadata} file in Kafka's format (KIP-516, {@code PartitionMetadataFile}):
 * the two lines {@code version: 0} and {@code topic_id: <22-character id>}, the id in URL-safe
 * base64 without padding, no newline after the second line (what Kafka writes).
 *
 * <p>Parsing is strict: exactly those two lines (one trailing newline tolerated, since
 * Kafka's reader tolerates it), version 0 only, an id that is canonical base64 of 16 bytes and
 * not a reserved id. Anything else is malformed, and the LogManager treats the directory as a
 * stray rather than guess what it held.
 */
public final class PartitionMetadataFile {
    public static final String FILE_NAME = "partition.metadata";
    /** The only version this code writes and reads. */
    public static final int VERSION = 0;
    private static final String VERSION_LINE = "version: " + VERSION;
    private static final String TOPIC_ID_PREFIX = "topic_id: ";
    private static final int ID_LENGTH = 22;
    /** Longer than any valid file; a bigger one is malformed without being decoded. */
    public static final int FILE_BYTES_MAX = 64;

    private PartitionMetadataFile() {
    }

    /** The file's bytes for a partition of the topic {@code topicId}. */
    public static byte[] format(UuidKey topicId) {
        return (VERSION_LINE + "\n" + TOPIC_ID_PREFIX + TopicIds.toBase64(topicId.toUuid()))
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The topic id the file holds; {@link MalformedException} saying why when it is not a valid file. */
    public static UuidKey parse(byte[] content) throws MalformedException {
        if (content.length > FILE_BYTES_MAX) {
            throw new MalformedException(content.length + " bytes, more than a partition.metadata file holds");
        }
        for (byte b : content) {
            if (b < 0) {
                throw new MalformedException("not ASCII");
            }
        }
        String text = new String(content, StandardCharsets.US_ASCII);
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        int newline = text.indexOf('\n');
        if (newline < 0) {
            throw new MalformedException("one line, expected 'version: 0' and 'topic_id: <id>'");
        }
        String versionLine = text.substring(0, newline);
        String idLine = text.substring(newline + 1);
        if (!versionLine.equals(VERSION_LINE)) {
            throw new MalformedException("first line '" + versionLine + "', expected '" + VERSION_LINE + "'");
        }
        if (!idLine.startsWith(TOPIC_ID_PREFIX) || idLine.length() != TOPIC_ID_PREFIX.length() + ID_LENGTH) {
            throw new MalformedException("second line '" + idLine + "', expected 'topic_id: <22-character id>'");
        }
        return topicId(idLine.substring(TOPIC_ID_PREFIX.length()));
    }

    private static UuidKey topicId(String text) throws MalformedException {
        Uuid id;
        try {
            id = TopicIds.fromBase64(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedException("topic id '" + text + "' is not URL-safe base64 of 16 bytes");
        }
        if (!TopicIds.toBase64(id).equals(text)) {
            throw new MalformedException("topic id '" + text + "' is not in canonical form");
        }
        if (id.equals(TopicIds.ZERO) || id.equals(TopicIds.METADATA_TOPIC_ID)) {
            throw new MalformedException("topic id '" + text + "' is reserved");
        }
        return UuidKey.of(id);
    }

    /** A {@code partition.metadata} file that does not hold what the format says; the message says why. */
    public static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        public MalformedException(String message) {
            super(message);
        }
    }
}
