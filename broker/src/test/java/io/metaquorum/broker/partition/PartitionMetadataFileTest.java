package io.metaquorum.broker.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.raft.TopicIds;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** {@code partition.metadata} in Kafka's format, parsed strictly. */
class PartitionMetadataFileTest {
    private static final UuidKey ID = new UuidKey(0x1234_5678_9ABC_DEF0L, 0x0FED_CBA9_8765_4321L);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void kafkasFormat() {
        String id = TopicIds.toBase64(ID.toUuid());
        assertEquals(22, id.length());
        assertArrayEquals(bytes("version: 0\ntopic_id: " + id), PartitionMetadataFile.format(ID));
    }

    @Test
    void readsWhatKafkaWritesWithOrWithoutAFinalNewline() throws Exception {
        String id = TopicIds.toBase64(ID.toUuid());
        assertEquals(ID, PartitionMetadataFile.parse(bytes("version: 0\ntopic_id: " + id)));
        assertEquals(ID, PartitionMetadataFile.parse(bytes("version: 0\ntopic_id: " + id + "\n")));
    }

    @Test
    void refusesEverythingElse() {
        String id = TopicIds.toBase64(ID.toUuid());
        String last = id.substring(21);
        String nonCanonical = id.substring(0, 21) + (last.equals("A") ? "B" : "A");
        for (String text : new String[] {"", "version: 0", "version: 0\n", "version: 1\ntopic_id: " + id,
                "version:  0\ntopic_id: " + id, "version: 0\ntopic_id:  " + id, "version: 0\r\ntopic_id: " + id,
                "version: 0\ntopic_id: " + id + "\n\n", "version: 0\ntopic_id: " + id + "A",
                "version: 0\ntopic_id: " + id.substring(1), "version: 0\ntopic_id: " + id.replace(id.charAt(3), '+'),
                "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA", "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ",
                "version: 0\ntopic_id: " + nonCanonical, "topic_id: " + id + "\nversion: 0", "é".repeat(40),
                "version: 0\ntopic_id: " + id + "x".repeat(100)}) {
            if (text.equals("version: 0\ntopic_id: " + nonCanonical) && TopicIds.toBase64(TopicIds.fromBase64(
                    nonCanonical)).equals(nonCanonical)) {
                continue;
            }
            assertThrows(PartitionMetadataFile.MalformedException.class, () -> PartitionMetadataFile.parse(bytes(text)),
                    text);
        }
    }

    @Property(tries = 300)
    void roundTrips(@ForAll long most, @ForAll long least) throws Exception {
        UuidKey id = new UuidKey(most, least);
        if (id.toUuid().equals(TopicIds.ZERO) || id.toUuid().equals(TopicIds.METADATA_TOPIC_ID)) {
            return;
        }
        assertEquals(id, PartitionMetadataFile.parse(PartitionMetadataFile.format(id)));
    }
}
