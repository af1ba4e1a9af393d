package io.metaquorum.metadata.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shell's {@code /scram} tree: users, their mechanisms, and a credential without its secrets. */
class ImageTreeScramTest {
    private static ImageTree tree() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(MetadataRecord.newBuilder().setUserScramCredential(UserScramCredentialRecord.newBuilder()
                .setName("alice").setMechanism(2).setSalt(ByteString.copyFromUtf8("pepper"))
                .setStoredKey(ByteString.copyFrom(new byte[64])).setServerKey(ByteString.copyFrom(new byte[64]))
                .setIterations(8192)).build(), 0, 1);
        return new ImageTree(delta.apply());
    }

    @Test
    void aCredentialShowsItsIterationsAndRedactsItsSaltAndKeys() {
        ImageTree tree = tree();
        assertEquals(List.of("alice"), tree.children(List.of("scram")));
        assertEquals(List.of("SCRAM-SHA-512"), tree.children(List.of("scram", "alice")));
        assertEquals("user: alice\nmechanism: SCRAM-SHA-512\niterations: 8192\nsalt: [redacted]\n"
                + "storedKey: [redacted]\nserverKey: [redacted]", tree.content(List.of("scram", "alice",
                "SCRAM-SHA-512")));
        assertNull(tree.content(List.of("scram", "alice", "SCRAM-SHA-256")));
        assertNull(tree.children(List.of("scram", "bob")));
    }
}
