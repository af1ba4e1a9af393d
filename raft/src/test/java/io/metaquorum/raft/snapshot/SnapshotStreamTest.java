package io.metaquorum.raft.snapshot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SnapshotEncoder} and {@link SnapshotDecoder}: the format of SnapshotCodec, one batch at a time. */
class SnapshotStreamTest {
    private static final OffsetAndEpoch ID = new OffsetAndEpoch(5_000, 3);

    /** A writer that remembers the length of every chunk it was given. */
    private static final class RecordingWriter implements SnapshotWriter {
        final InMemorySnapshotWriter inner = new InMemorySnapshotWriter(ID);
        final List<Integer> chunkLengths = new ArrayList<>();

        @Override
        public OffsetAndEpoch id() {
            return ID;
        }

        @Override
        public void append(byte[] chunk) {
            chunkLengths.add(chunk.length);
            inner.append(chunk);
        }

        @Override
        public long sizeBytes() {
            return inner.sizeBytes();
        }

        @Override
        public void freeze() {
            inner.freeze();
        }

        @Override
        public boolean isFrozen() {
            return inner.isFrozen();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static List<ByteString> records(int count) {
        List<ByteString> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(ByteString.copyFromUtf8("record-" + i + "-" + "x".repeat(i % 37)));
        }
        return records;
    }

    private static byte[] encode(List<ByteString> records, int batchRecordsMax, int batchBytesMax) {
        InMemorySnapshotWriter writer = new InMemorySnapshotWriter(ID);
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 77L, batchRecordsMax, batchBytesMax);
        records.forEach(encoder::add);
        encoder.finish();
        assertTrue(writer.isFrozen(), "finish freezes the writer");
        return writer.frozenContent();
    }

    /** {@code content} as snapshot {@link #ID}, at most {@code chunkBytes} bytes per read. */
    private static SnapshotReader reader(byte[] content, int chunkBytes) {
        return new SnapshotReader() {
            @Override
            public OffsetAndEpoch id() {
                return ID;
            }

            @Override
            public long sizeBytes() {
                return content.length;
            }

            @Override
            public byte[] read(long position, int maxBytes) {
                int from = (int) position;
                return Arrays.copyOfRange(content, from, from + Math.min(Math.min(maxBytes, chunkBytes),
                        content.length - from));
            }
        };
    }

    private static List<ByteString> decodeAll(SnapshotDecoder decoder) {
        List<ByteString> records = new ArrayList<>();
        for (List<ByteString> batch = decoder.nextBatch(); batch != null; batch = decoder.nextBatch()) {
            records.addAll(batch);
        }
        return records;
    }

    @Test
    void theStreamedFormatIsTheCodecsFormat() {
        List<ByteString> records = records(250);
        assertArrayEquals(SnapshotCodec.encode(ID, 77L, records, 16), encode(records, 16, Integer.MAX_VALUE));
        assertEquals(records, SnapshotCodec.decode(encode(records, 16, 200)).records());
    }

    @Test
    void decodesAcrossEveryChunkBoundary() {
        List<ByteString> records = records(300);
        byte[] content = encode(records, 7, 120);
        for (int chunkBytes : new int[] {1, 2, 3, 5, 64, 1000, content.length}) {
            SnapshotDecoder decoder = SnapshotDecoder.of(reader(content, chunkBytes));
            assertEquals(records, decodeAll(decoder), "chunks of " + chunkBytes + " bytes");
            assertEquals(3, decoder.epoch());
            assertEquals(77L, decoder.lastContainedLogTimeMs());
            assertEquals(300, decoder.recordCount());
            assertNull(decoder.nextBatch(), "stays at the end");
        }
    }

    @Test
    void everyChunkWrittenIsOneBoundedBatch() {
        RecordingWriter writer = new RecordingWriter();
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 0L, 1_000, 4_096);
        records(20_000).forEach(encoder::add);
        encoder.finish();
        int largest = writer.chunkLengths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(largest <= 4_096 + 200, "a chunk is about one batch of at most 4 KiB of records, got " + largest);
        assertTrue(writer.chunkLengths.size() > 100, "many chunks, not one: " + writer.chunkLengths.size());
        assertEquals(writer.sizeBytes(), writer.chunkLengths.stream().mapToLong(Integer::longValue).sum());
    }

    @Test
    void aCorruptBatchNamesTheSnapshotAndItsBytePosition() {
        byte[] content = encode(records(100), 10, Integer.MAX_VALUE);
        // The third batch (the second data batch) starts where the header and the first data batch end.
        byte[] corrupted = content.clone();
        long secondDataBatch = positionOfBatch(content, 2);
        corrupted[(int) secondDataBatch + 20] ^= 0x10;
        SnapshotDecoder decoder = SnapshotDecoder.of(reader(corrupted, 13));
        decoder.nextBatch();
        CorruptLogException e = assertThrows(CorruptLogException.class, decoder::nextBatch);
        assertEquals(secondDataBatch, e.offset());
        assertTrue(e.getMessage().contains("snapshot " + ID) && e.getMessage().contains("byte position "
                + secondDataBatch), e.getMessage());
    }

    @Test
    void aTruncatedSnapshotNamesTheSnapshotAndWhereItEnds() {
        byte[] content = encode(records(100), 10, Integer.MAX_VALUE);
        for (int length : new int[] {content.length - 1, content.length - 30, content.length / 2, 3}) {
            byte[] truncated = Arrays.copyOf(content, length);
            CorruptLogException e = assertThrows(CorruptLogException.class,
                    () -> decodeAll(SnapshotDecoder.of(reader(truncated, 64))), "length " + length);
            assertTrue(e.getMessage().contains("snapshot " + ID), e.getMessage());
        }
        CorruptLogException empty = assertThrows(CorruptLogException.class,
                () -> SnapshotDecoder.of(reader(new byte[0], 64)));
        assertEquals(0, empty.offset());
    }

    @Test
    void aRecordLargerThanTheByteLimitGetsABatchOfItsOwn() {
        List<ByteString> records = List.of(ByteString.copyFromUtf8("a"), ByteString.copyFrom(new byte[5_000]),
                ByteString.copyFromUtf8("b"));
        RecordingWriter writer = new RecordingWriter();
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 0L, 100, 1_000);
        records.forEach(encoder::add);
        encoder.finish();
        assertEquals(5, writer.chunkLengths.size(), "header, [a], [big], [b], footer");
        assertEquals(records, SnapshotCodec.decode(writer.inner.frozenContent()).records());
    }

    @Test
    void aSnapshotStreamedIntoTheLogIsReadBackInChunks() {
        InMemoryRaftLog log = new InMemoryRaftLog();
        SnapshotWriter writer = log.createSnapshot(ID);
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 0L, 50, 1 << 20);
        records(1_000).forEach(encoder::add);
        encoder.finish();
        log.installSnapshot(writer);
        assertEquals(ID.offset(), log.startOffset());
        assertEquals(records(1_000), decodeAll(SnapshotDecoder.of(SnapshotReader.of(log, ID))));
        SnapshotWriter frozen = log.createSnapshot(new OffsetAndEpoch(6_000, 3));
        frozen.freeze();
        assertThrows(IllegalStateException.class, () -> frozen.append(new byte[1]), "nothing is added once frozen");
    }

    /** The byte position where batch {@code index} (0 = header) starts. */
    private static long positionOfBatch(byte[] content, int index) {
        com.google.protobuf.CodedInputStream in = com.google.protobuf.CodedInputStream.newInstance(content);
        try {
            for (int i = 0; i < index; i++) {
                in.skipRawBytes(in.readRawVarint32());
            }
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return in.getTotalBytesRead();
    }
}
