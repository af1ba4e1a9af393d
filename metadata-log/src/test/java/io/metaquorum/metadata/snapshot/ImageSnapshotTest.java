package io.metaquorum.metadata.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An image written as a snapshot with {@link SnapshotTask} and read back with {@link ImageSnapshotLoader}. */
class ImageSnapshotTest {
    private static MetadataImage replay(List<MetadataRecord> records, int epoch) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, epoch);
        }
        return delta.apply();
    }

    /** Remembers the size of every chunk; keeps none of them (so a test can write a large snapshot). */
    private static final class ChunkSizes implements SnapshotWriter {
        final InMemorySnapshotWriter content;
        final List<Integer> sizes = new ArrayList<>();

        ChunkSizes(OffsetAndEpoch id) {
            content = new InMemorySnapshotWriter(id);
        }

        @Override
        public OffsetAndEpoch id() {
            return content.id();
        }

        @Override
        public void append(byte[] chunk) {
            sizes.add(chunk.length);
            content.append(chunk);
        }

        @Override
        public long sizeBytes() {
            return content.sizeBytes();
        }

        @Override
        public void freeze() {
            content.freeze();
        }

        @Override
        public boolean isFrozen() {
            return content.isFrozen();
        }

        @Override
        public void close() {
            content.close();
        }
    }

    @Test
    void anImageOfManyPartitionsIsWrittenInBoundedChunksAndLoadsEqual() {
        // 400 topics x 50 partitions: 20,000 partitions, about 900 KB of records.
        MetadataImage image = replay(TestSnapshots.clusterRecords(6, 400, 50, 0), 4);
        SnapshotTask task = SnapshotTask.of(image, 1234L);
        ChunkSizes writer = new ChunkSizes(task.id());
        long records = task.writeTo(writer, new SnapshotLimits(500, 16 << 10));

        assertEquals(6 + 400 * 51 + 40, records);
        int largest = writer.sizes.stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(largest <= (16 << 10) + 64, "each chunk is one batch: 16 KiB of records and a header: " + largest);
        assertTrue(writer.sizeBytes() > 40L * largest, "the snapshot (" + writer.sizeBytes()
                + " bytes) is many chunks, never one array of it");
        assertTrue(writer.isFrozen());

        byte[] content = writer.content.frozenContent();
        LoadedSnapshot loaded = ImageSnapshotLoader.load(task.id(), TestSnapshots.reader(task.id(), content, 4096));
        assertEquals(image, loaded.image(), "the image is a function of the log: snapshot or replay, the same value");
        assertEquals(records, loaded.records());
        assertEquals(1234L, loaded.lastContainedLogTimeMs());
        assertEquals(records, SnapshotCodec.decode(content).records().size(), "the array decoder reads it too");
    }

    @Test
    void anEmptyImageAtALaterOffsetLoadsAtThatOffset() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.advanceTo(9, 2);
        MetadataImage image = delta.apply();
        SnapshotTask task = SnapshotTask.of(image, 0L);
        byte[] content = TestSnapshots.write(task, SnapshotLimits.DEFAULTS);
        MetadataImage loaded = ImageSnapshotLoader.load(task.id(), TestSnapshots.reader(task.id(), content, 3)).image();
        assertEquals(image, loaded);
        assertEquals(new OffsetAndEpoch(10, 2), task.id());
    }

    @Test
    void anImpossibleRecordInASnapshotNamesTheSnapshotAndTheRecord() {
        OffsetAndEpoch id = new OffsetAndEpoch(50, 1);
        PartitionRecord orphan = PartitionRecord.newBuilder().setTopicId(TopicIds.uuid(5, 5)).setPartition(0)
                .addReplicas(0).addIsr(0).setLeader(0).build();
        List<ByteString> records = MetadataRecordCodec.encodeAll(List.of(MetadataRecordCodec.noOp(),
                MetadataRecord.newBuilder().setPartition(orphan).build()));
        byte[] content = SnapshotCodec.encode(id, 0L, records, 10);
        InvalidRecordException e = assertThrows(InvalidRecordException.class,
                () -> ImageSnapshotLoader.load(id, TestSnapshots.reader(id, content, 64)));
        assertEquals(1, e.offset());
        assertTrue(e.getMessage().contains("snapshot " + id), e.getMessage());
    }

    @Test
    void aSnapshotWithMoreRecordsThanItsOffsetIsCorrupt() {
        OffsetAndEpoch id = new OffsetAndEpoch(1, 1);
        byte[] content = SnapshotCodec.encode(id, 0L, MetadataRecordCodec.encodeAll(List.of(MetadataRecordCodec.noOp(),
                MetadataRecordCodec.noOp())), 10);
        assertThrows(io.metaquorum.raft.storage.CorruptLogException.class,
                () -> ImageSnapshotLoader.load(id, TestSnapshots.reader(id, content, 64)));
    }
}
