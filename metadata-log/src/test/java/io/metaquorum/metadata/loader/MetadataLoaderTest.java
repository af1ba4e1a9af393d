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
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class MetadataLoaderTest {
    private final List<Consumer<RaftCore>> requestedTasks = new ArrayList<>();

    private MetadataLoader loader(long snapshotTriggerBytes) {
        return new MetadataLoader("[node 1] ", snapshotTriggerBytes, 2, requestedTasks::add);
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
    }

    @Test
    void snapshotRoundTripRebuildsTheSameImage() {
        MetadataLoader source = loader(1 << 20);
        source.handleCommit(List.of(TestBatches.leaderChange(0, 2, 1),
                TestBatches.data(1, 2, MetadataRecordCodec.featureLevel("metadata.version", 1),
                        MetadataRecordCodec.featureLevel("zeta", 4), MetadataRecordCodec.noOp())));
        MetadataImage image = source.image();
        OffsetAndEpoch id = new OffsetAndEpoch(image.committedEndOffset(), image.lastCommittedEpoch());

        byte[] content = MetadataLoader.snapshotContent(id, image, source.status().lastCommittedTimeMs(), 1);
        MetadataLoader target = loader(1 << 20);
        target.handleLeaderChange(new LeaderAndEpoch(2, 5));
        target.handleLoadSnapshot(id, content);

        MetadataImage loaded = target.image();
        assertEquals(image, loaded, "the image is a function of the log: snapshot or replay, the same value");
        assertEquals(source.status().lastCommittedTimeMs(), target.status().lastCommittedTimeMs());
        assertEquals(2, target.status().recordsReplayed(), "a snapshot holds the image's records, not the log's");
        assertEquals(2, target.status().leaderId(), "the leader survives a snapshot load");

        target.handleCommit(List.of(TestBatches.data(id.offset(), 2, MetadataRecordCodec.noOp())));
        assertEquals(id.offset(), target.image().lastCommittedOffset(), "commits continue after the snapshot");
    }
}
