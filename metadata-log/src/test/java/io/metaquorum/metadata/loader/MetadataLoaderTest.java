package io.metaquorum.metadata.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.InvariantViolation;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicChange;
import io.metaquorum.metadata.image.UuidKey;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.metadata.snapshot.TestSnapshots;
import io.metaquorum.protocol.ControlRecord;
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
    void publishesEachImageWithTheTopicsChangedSinceTheImageBefore() {
        MetadataLoader loader = loader(1 << 20);
        Uuid t = TopicIds.uuid(1, 1);
        Uuid u = TopicIds.uuid(2, 2);
        loader.handleCommit(List.of(TestBatches.data(0, 1, topic("t", t), partition(t, 0), partition(t, 1),
                topic("u", u), partition(u, 0))));
        ImageUpdate created = loader.lastUpdate();
        assertSame(loader.image(), created.image());
        assertEquals(-1, created.baseOffset());
        assertEquals(TopicChange.WHOLE, created.topics().topic(UuidKey.of(t)));
        assertEquals(List.of(UuidKey.of(t), UuidKey.of(u)), created.topics().byId().keySet().toJavaList());

        loader.handleCommit(List.of(TestBatches.data(5, 1, partition(u, 1),
                MetadataRecordCodec.featureLevel("f", 1))));
        ImageUpdate grown = loader.lastUpdate();
        assertEquals(4, grown.baseOffset(), "counted from the image before");
        assertEquals(List.of(UuidKey.of(u)), grown.topics().byId().keySet().toJavaList());
        assertEquals(List.of(1), grown.topics().topic(UuidKey.of(u)).partitions().toJavaList());

        loader.handleCommit(List.of(TestBatches.data(7, 1, MetadataRecordCodec.noOp())));
        assertTrue(loader.lastUpdate().topics().isEmpty(), "nothing changed in the topics");
        assertEquals(created.topics().union(grown.topics()), created.then(grown).topics());
    }

    private static MetadataRecord topic(String name, Uuid id) {
        return MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName(name).setTopicId(id)).build();
    }

    private static MetadataRecord partition(Uuid id, int partition) {
        return MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(id)
                .setPartition(partition).addReplicas(1).addIsr(1).setLeader(1)).build();
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
        assertSame(loaded, target.lastUpdate().image());
        assertTrue(target.lastUpdate().topics().isUnknown(), "a loaded snapshot replaces the image whole");
        assertEquals(source.status().lastCommittedTimeMs(), target.status().lastCommittedTimeMs());
        assertEquals(2, target.status().recordsReplayed(), "a snapshot holds the image's records, not the log's");
        assertEquals(2, target.status().leaderId(), "the leader survives a snapshot load");

        target.handleCommit(List.of(TestBatches.data(id.offset(), 2, MetadataRecordCodec.noOp())));
        assertEquals(id.offset(), target.image().lastCommittedOffset(), "commits continue after the snapshot");
    }

    /** KIP-853: a snapshot replaces the log holding the VotersRecord, so it carries the latest committed one. */
    @Test
    void snapshotsCarryTheLatestCommittedVoterSetAndALoadedOneKeepsIt() {
        ControlRecord first = ControlRecord.newBuilder()
                .setVoters(io.metaquorum.raft.VoterSet.ofIds(List.of(1, 2, 3)).toRecord()).build();
        ControlRecord second = ControlRecord.newBuilder()
                .setVoters(io.metaquorum.raft.VoterSet.ofIds(List.of(1, 2)).toRecord()).build();
        MetadataLoader source = loader(1 << 20);
        source.handleCommit(List.of(
                RecordBatches.build(0, 1, 1000, true, List.of(first.toByteString())),
                RecordBatches.build(1, 2, 1001, true, List.of(second.toByteString())),
                TestBatches.data(2, 2, MetadataRecordCodec.featureLevel("metadata.version", 1))));
        MetadataLoader triggered = loader(1);
        triggered.handleCommit(List.of(
                RecordBatches.build(0, 1, 1000, true, List.of(first.toByteString())),
                RecordBatches.build(1, 2, 1001, true, List.of(second.toByteString())),
                TestBatches.data(2, 2, MetadataRecordCodec.featureLevel("metadata.version", 1))));
        SnapshotTask task = requestedTasks.get(requestedTasks.size() - 1);
        assertEquals(List.of(second.toByteString()), task.raftRecords(), "the latest one only");

        byte[] content = TestSnapshots.write(task, new SnapshotLimits(1, 1 << 20));
        MetadataLoader target = loader(1);
        target.handleLoadSnapshot(task.id(), TestSnapshots.reader(task.id(), content, 7));
        target.handleCommit(List.of(TestBatches.data(3, 2, MetadataRecordCodec.noOp())));
        assertEquals(List.of(second.toByteString()), requestedTasks.get(requestedTasks.size() - 1).raftRecords(),
                "kept from the loaded snapshot into the next one");
    }
}
