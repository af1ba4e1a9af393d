package io.metaquorum.metadata.snapshot;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.raft.snapshot.SnapshotEncoder;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.List;

/**
 * One snapshot to write: the committed {@code image} at the end of the log prefix it
 * describes, named {@code id} (its end offset and the epoch of its last record). The image
 * is immutable, so the task may be carried to another thread and written there while the
 * loader goes on replaying.
 *
 * @param lastContainedLogTimeMs the append time of the image's last record (the snapshot header's)
 * @param raftRecords            raft's KRaftVersionRecord and VotersRecord in force at {@code id}
 *                               (encoded control records; empty without them)
 */
public record SnapshotTask(OffsetAndEpoch id, MetadataImage image, long lastContainedLogTimeMs,
                           List<ByteString> raftRecords) {
    public SnapshotTask(OffsetAndEpoch id, MetadataImage image, long lastContainedLogTimeMs) {
        this(id, image, lastContainedLogTimeMs, List.of());
    }

    public SnapshotTask {
        raftRecords = List.copyOf(raftRecords);
        Invariants.check(id.offset() == image.committedEndOffset() && id.epoch() == image.lastCommittedEpoch(),
                "snapshot %s does not name the image at offset %d epoch %d", id, image.committedEndOffset(),
                image.lastCommittedEpoch());
    }

    /** The snapshot of {@code image} named {@code id}. */
    public static SnapshotTask of(MetadataImage image, long lastContainedLogTimeMs) {
        return of(image, lastContainedLogTimeMs, List.of());
    }

    /** The snapshot of {@code image} carrying raft's {@code raftRecords}. */
    public static SnapshotTask of(MetadataImage image, long lastContainedLogTimeMs, List<ByteString> raftRecords) {
        return new SnapshotTask(new OffsetAndEpoch(image.committedEndOffset(), image.lastCommittedEpoch()), image,
                lastContainedLogTimeMs, raftRecords);
    }

    /**
     * Writes the image as records into {@code out} (whose id must be this task's) one batch at
     * a time, then freezes it: the image's records are made, encoded and written one by one,
     * never all held at once. Returns the number of records written.
     */
    public long writeTo(SnapshotWriter out, SnapshotLimits limits) {
        Invariants.check(out.id().equals(id), "writer of snapshot %s given the task of %s", out.id(), id);
        SnapshotEncoder encoder = new SnapshotEncoder(out, lastContainedLogTimeMs, limits.batchRecordsMax(),
                limits.batchBytesMax(), raftRecords);
        image.forEachRecord(record -> encoder.add(MetadataRecordCodec.encode(record)));
        encoder.finish();
        return encoder.recordCount();
    }

    /**
     * Writes this snapshot into {@code log} and installs it there, on the calling thread: for
     * tools and fixtures that build a data directory; a node writes on its snapshot thread.
     */
    public void storeIn(RaftLog log, SnapshotLimits limits) {
        try (SnapshotWriter writer = log.createSnapshot(id)) {
            writeTo(writer, limits);
            log.installSnapshot(writer);
        }
    }
}
