package io.metaquorum.raft.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {
    private static final OffsetAndEpoch ID = new OffsetAndEpoch(120, 7);

    private static List<ByteString> records(int count) {
        List<ByteString> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(ByteString.copyFromUtf8("record-" + i));
        }
        return records;
    }

    private static List<RecordBatch> batchesOf(byte[] content) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(content);
        List<RecordBatch> batches = new ArrayList<>();
        while (!in.isAtEnd()) {
            batches.add(RecordBatch.parseFrom(in.readBytes()));
        }
        return batches;
    }

    @Test
    void roundTripsRecordsInBatchesOfAtMostTheLimit() throws IOException {
        byte[] content = SnapshotCodec.encode(ID, 555L, records(7), 3);
        DecodedSnapshot decoded = SnapshotCodec.decode(content);
        assertEquals(new DecodedSnapshot(7, 555L, records(7)), decoded);
        List<RecordBatch> batches = batchesOf(content);
        assertEquals(List.of(0L, 0L, 3L, 6L, 7L), batches.stream().map(RecordBatch::getBaseOffset).toList());
        assertEquals(List.of(true, false, false, false, true), batches.stream().map(RecordBatch::getControl).toList());
        assertTrue(batches.stream().allMatch(batch -> batch.getEpoch() == 7 && RecordBatches.isValid(batch)));
    }

    @Test
    void roundTripsAnEmptySnapshot() {
        assertEquals(new DecodedSnapshot(7, 1L, List.of()), SnapshotCodec.decode(SnapshotCodec.encode(ID, 1L, List.of(), 10)));
    }

    @Test
    void rejectsANonPositiveBatchLimit() {
        assertThrows(IllegalArgumentException.class, () -> SnapshotCodec.encode(ID, 0L, records(1), 0));
    }

    /**
     * A flip either fails the decode or leaves the meaning unchanged (protobuf reads a bool
     * varint of 3 as true, like 1): never a silently different snapshot.
     */
    @Test
    void noSingleBitFlipChangesWhatIsDecoded() {
        byte[] content = SnapshotCodec.encode(ID, 555L, records(5), 2);
        DecodedSnapshot original = SnapshotCodec.decode(content);
        int detected = 0;
        for (int bit = 0; bit < content.length * 8; bit++) {
            byte[] flipped = content.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            try {
                assertEquals(original, SnapshotCodec.decode(flipped), "bit " + bit);
            } catch (CorruptLogException e) {
                detected++;
            }
        }
        assertTrue(detected > content.length * 8 * 9 / 10, detected + " of " + content.length * 8 + " detected");
    }

    @Test
    void everyTruncationIsDetected() {
        byte[] content = SnapshotCodec.encode(ID, 555L, records(5), 2);
        for (int length = 0; length < content.length; length++) {
            byte[] truncated = Arrays.copyOf(content, length);
            assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(truncated), () -> "length " + truncated.length);
        }
    }

    @Test
    void corruptionNamesThePositionOfTheBadBatch() throws IOException {
        byte[] content = SnapshotCodec.encode(ID, 555L, records(4), 2);
        int headerLength = CodedOutputStream.computeUInt32SizeNoTag(batchesOf(content).get(0).getSerializedSize())
                + batchesOf(content).get(0).getSerializedSize();
        byte[] corrupted = content.clone();
        corrupted[headerLength + 6] ^= 0x01;
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(corrupted));
        assertEquals(headerLength, e.offset());
    }

    @Test
    void rejectsMissingFooterAndTrailingBytes() throws IOException {
        List<RecordBatch> batches = batchesOf(SnapshotCodec.encode(ID, 555L, records(2), 2));
        byte[] withoutFooter = delimited(batches.subList(0, 2));
        CorruptLogException missing = assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(withoutFooter));
        assertEquals(withoutFooter.length, missing.offset());
        byte[] twoFooters = delimited(List.of(batches.get(0), batches.get(1), batches.get(2), batches.get(2)));
        assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(twoFooters));
        byte[] withoutHeader = delimited(batches.subList(1, 3));
        assertEquals(0, assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(withoutHeader)).offset());
        assertEquals(0, assertThrows(CorruptLogException.class, () -> SnapshotCodec.decode(new byte[0])).offset());
    }

    @Test
    void rejectsADataBatchOutOfSequenceOrWithAnotherEpoch() throws IOException {
        List<RecordBatch> batches = batchesOf(SnapshotCodec.encode(ID, 555L, records(2), 2));
        RecordBatch skipped = RecordBatches.build(1, 7, 555L, false, records(2));
        assertThrows(CorruptLogException.class,
                () -> SnapshotCodec.decode(delimited(List.of(batches.get(0), skipped, batches.get(2)))));
        RecordBatch otherEpoch = RecordBatches.build(0, 6, 555L, false, records(2));
        assertThrows(CorruptLogException.class,
                () -> SnapshotCodec.decode(delimited(List.of(batches.get(0), otherEpoch, batches.get(2)))));
    }

    private static byte[] delimited(List<RecordBatch> batches) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (RecordBatch batch : batches) {
            batch.writeDelimitedTo(out);
        }
        return out.toByteArray();
    }
}
