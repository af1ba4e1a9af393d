package io.metaquorum.metadata.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveUserScramCredentialRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SCRAM credentials replayed into the image: lookups, replacement, removal, snapshots, refusals. */
class ScramImageTest {
    static MetadataRecord credential(String user, ScramMechanism mechanism, int iterations, int fill) {
        byte[] key = new byte[mechanism.keyBytes()];
        java.util.Arrays.fill(key, (byte) fill);
        return MetadataRecord.newBuilder().setUserScramCredential(UserScramCredentialRecord.newBuilder()
                .setName(user).setMechanism(mechanism.type()).setSalt(ByteString.copyFrom(new byte[] {1, 2, (byte) fill}))
                .setStoredKey(ByteString.copyFrom(key)).setServerKey(ByteString.copyFrom(key))
                .setIterations(iterations)).build();
    }

    static MetadataRecord removal(String user, ScramMechanism mechanism) {
        return MetadataRecord.newBuilder().setRemoveUserScramCredential(RemoveUserScramCredentialRecord.newBuilder()
                .setName(user).setMechanism(mechanism.type())).build();
    }

    private static MetadataImage replayAll(List<MetadataRecord> log) {
        MetadataImage image = MetadataImage.EMPTY;
        for (int i = 0; i < log.size(); i++) {
            MetadataDelta delta = new MetadataDelta(image);
            delta.replay(log.get(i), i, 1);
            image = delta.apply();
            assertEquals(image, ImageTestSupport.rebuilt(image), "after record " + i);
            assertEquals(image, ImageTestSupport.rebuiltFromSnapshot(image), "snapshot after record " + i);
        }
        return image;
    }

    @Test
    void credentialsAreAddedReplacedAndRemovedAndEveryImageRoundTrips() {
        MetadataImage image = replayAll(List.of(
                credential("bob", ScramMechanism.SCRAM_SHA_512, 4096, 3),
                credential("alice", ScramMechanism.SCRAM_SHA_256, 8192, 1),
                credential("alice", ScramMechanism.SCRAM_SHA_512, 4096, 2),
                credential("alice", ScramMechanism.SCRAM_SHA_256, 16384, 4),
                removal("bob", ScramMechanism.SCRAM_SHA_512),
                removal("alice", ScramMechanism.SCRAM_SHA_512)));
        ScramImage scram = image.scram();
        assertEquals(List.of("alice"), scram.users(), "a user without credentials is gone");
        StoredScramCredential alice = scram.credential("alice", ScramMechanism.SCRAM_SHA_256).orElseThrow();
        assertEquals(16384, alice.iterations(), "the later record replaced the earlier one");
        assertArrayEquals(new byte[] {1, 2, 4}, alice.salt());
        assertFalse(scram.credential("alice", ScramMechanism.SCRAM_SHA_512).isPresent());
        assertFalse(scram.credential("bob", ScramMechanism.SCRAM_SHA_512).isPresent());
    }

    @Test
    void snapshotsWriteCredentialsByUserThenMechanism() {
        MetadataImage image = replayAll(List.of(
                credential("bob", ScramMechanism.SCRAM_SHA_512, 4096, 3),
                credential("alice", ScramMechanism.SCRAM_SHA_512, 4096, 2),
                credential("alice", ScramMechanism.SCRAM_SHA_256, 8192, 1)));
        List<String> written = image.toRecords().stream().filter(MetadataRecord::hasUserScramCredential)
                .map(r -> r.getUserScramCredential().getName() + "/" + r.getUserScramCredential().getMechanism())
                .toList();
        assertEquals(List.of("alice/1", "alice/2", "bob/2"), written);
    }

    @Test
    void theLookupHandsOutCopies() {
        MetadataImage image = replayAll(List.of(credential("alice", ScramMechanism.SCRAM_SHA_256, 8192, 1)));
        StoredScramCredential credential = image.scram().credential("alice", ScramMechanism.SCRAM_SHA_256)
                .orElseThrow();
        credential.salt()[0] = 99;
        credential.storedKey()[0] = 99;
        assertEquals(credential, image.scram().credential("alice", ScramMechanism.SCRAM_SHA_256).orElseThrow());
        assertArrayEquals(new byte[] {1, 2, 1}, credential.salt());
        assertFalse(credential.toString().contains("[1, 2"), "no bytes in the text form");
        assertTrue(credential.toString().contains("iterations=8192"));
    }

    @Test
    void impossibleRecordsAreRefusedNamingTheirOffset() {
        MetadataRecord good = credential("alice", ScramMechanism.SCRAM_SHA_256, 8192, 1);
        UserScramCredentialRecord body = good.getUserScramCredential();
        List<MetadataRecord> bad = List.of(
                withBody(body.toBuilder().setName("").build()),
                withBody(body.toBuilder().setMechanism(3).build()),
                withBody(body.toBuilder().setIterations(4095).build()),
                withBody(body.toBuilder().setIterations(16385).build()),
                withBody(body.toBuilder().setSalt(ByteString.EMPTY).build()),
                withBody(body.toBuilder().setStoredKey(ByteString.copyFrom(new byte[64])).build()),
                removal("alice", ScramMechanism.SCRAM_SHA_256));
        for (MetadataRecord record : bad) {
            MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
            InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> delta.replay(record, 5, 1),
                    record.toString());
            assertEquals(5, e.offset());
        }
    }

    private static MetadataRecord withBody(UserScramCredentialRecord body) {
        return MetadataRecord.newBuilder().setUserScramCredential(body).build();
    }
}
