package io.metaquorum.metadata.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.snapshot.TestSnapshots;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetadataLoaderTest {
    private final List<SnapshotTask> requestedTasks = new ArrayList<>();

    private MetadataLoader loader(long snapshotTriggerBytes) {
        return new MetadataLoader("[node 1] ", snapshotTriggerBytes, requestedTasks::add);
    }

    @Test
    void replaysCommittedBatchesIntoTheImage() {
        MetadataLoader loader = loader(1 << 20);
        loader.handleLeaderChange(new LeaderAndEpoch(1, 3));
        loader.handleCommit(List.of(
                TestBatches.leaderChange(0, 3, 1),
                TestBatches.data(1, 3, MetadataRecordCodec.featureLevel("metadata.version", 1),
                        MetadataRecordCodec.noOp())));
        loader.handleCommit(List.of(TestBatches.data(3, 3, MetadataRecordCodec.featureLevel("other.feature", 7))));

        MetadataImage image = loader.image();
        assertEquals(Map.of("metadata.version", 1, "other.feature", 7), image.features().levels());
        LoaderStatus status = loader.status();
        assertEquals(3, status.recordsReplayed(), "data records only; the leader-change record is raft's own");
        assertEquals(3, image.lastCommittedOffset());
        assertEquals(3, image.lastCommittedEpoch());
        assertEquals(1003, status.lastCommittedTimeMs());
        assertEquals(1, status.leaderId());
        assertEquals(3, status.leaderEpoch());
        assertTrue(requestedTasks.isEmpty(), "far below the snapshot trigger");
    }

    @Test
    void aFeatureLevelOfZeroRemovesTheFeature() {
        MetadataLoader loader = loader(1 << 20);
        loader.handleCommit(List.of(TestBatches.data(0, 1, MetadataRecordCodec.featureLevel("f", 2),
                MetadataRecordCodec.featureLevel("f", 0))));
        assertEquals(Optional.empty(), loader.image().features().level("f"));
    }

    @Test
    void aGapInCommittedOffsetsIsAnInvariantViolation() {
        MetadataLoader loader = loader(1 << 20);
        loader.handleCommit(List.of(TestBatches.leaderChange(0, 1, 1)));
        assertThrows(InvariantViolation.class,
                () -> loader.handleCommit(List.of(TestBatches.data(5, 1, MetadataRecordCodec.noOp()))));
    }

    @Test
    void anUndecodableRecordIsCorruptionNamingItsOffset() {
        MetadataLoader loader = loader(1 << 20);
        RecordBatch garbage = RecordBatches.build(0, 1, 0, false,
                List.of(MetadataRecordCodec.encode(MetadataRecordCodec.noOp()), ByteString.copyFromUtf8("\u00ff\u00ff")));
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> loader.handleCommit(List.of(garbage)));
        assertEquals(1, e.offset());
    }

    @Test
    void requestsASnapshotOncePerTriggerBytes() {
        MetadataLoader loader = loader(40);
        long offset = 0;
        for (int i = 0; i < 30; i++) {
            loader.handleCommit(List.of(TestBatches.data(offset, 1, MetadataRecordCodec.featureLevel("feature." + i, 1))));
            offset++;
        }
        // Each record is 15 or 16 bytes: two stay below 40, the third crosses it; the count restarts after each.
        assertEquals(10, requestedTasks.size());
        assertEquals(new OffsetAndEpoch(3, 1), requestedTasks.get(0).id(), "named by the image's end offset and epoch");
    }

    @Test
    void aSnapshotStillBeingWrittenDefersTheNextOne() {
        List<SnapshotTask> accepted = new ArrayList<>();
        boolean[] busy = {false};
        MetadataLoader loader = new MetadataLoader("[node 1] ", 40, task -> {
            if (busy[0]) {
                return false;
            }
            accepted.add(task);
            return true;
        });
        for (int i = 0; i < 3; i++) {
            loader.handleCommit(List.of(TestBatches.data(i, 1, MetadataRecordCodec.featureLevel("feature." + i, 1))));
        }
        assertEquals(1, accepted.size());
        busy[0] = true;
        for (int i = 3; i < 9; i++) {
            loader.handleCommit(List.of(TestBatches.data(i, 1, MetadataRecordCodec.featureLevel("feature." + i, 1))));
        }
        assertEquals(1, accepted.size(), "refused while the first is written");
        busy[0] = false;
        loader.handleCommit(List.of(TestBatches.data(9, 1, MetadataRecordCodec.featureLevel("feature.9", 1))));
        assertEquals(2, accepted.size(), "the bytes kept counting: the next commit schedules at once");
        assertEquals(10, accepted.get(1).id().offset());
    }

    @Test
    void snapshotRoundTripRebuildsTheSameImage() {
        MetadataLoader source = loader(1 << 20);
        source.handleCommit(List.of(TestBatches.leaderChange(0, 2, 1),
                TestBatches.data(1, 2, MetadataRecordCodec.featureLevel("metadata.version", 1),
                        MetadataRecordCodec.featureLevel("zeta", 4), MetadataRecordCodec.noOp())));
        MetadataImage image = source.image();
        OffsetAndEpoch id = new OffsetAndEpoch(image.committedEndOffset(), image.lastCommittedEpoch());

        byte[] content = TestSnapshots.write(SnapshotTask.of(image, source.status().lastCommittedTimeMs()),
                new SnapshotLimits(1, 1 << 20));
        MetadataLoader target = loader(1 << 20);
        target.handleLeaderChange(new LeaderAndEpoch(2, 5));
        target.handleLoadSnapshot(id, TestSnapshots.reader(id, content, 7));

        MetadataImage loaded = target.image();
        assertEquals(image, loaded, "the image is a function of the log: snapshot or replay, the same value");
        assertEquals(source.status().lastCommittedTimeMs(), target.status().lastCommittedTimeMs());
        assertEquals(2, target.status().recordsReplayed(), "a snapshot holds the image's records, not the log's");
        assertEquals(2, target.status().leaderId(), "the leader survives a snapshot load");

        target.handleCommit(List.of(TestBatches.data(id.offset(), 2, MetadataRecordCodec.noOp())));
        assertEquals(id.offset(), target.image().lastCommittedOffset(), "commits continue after the snapshot");
    }
}
