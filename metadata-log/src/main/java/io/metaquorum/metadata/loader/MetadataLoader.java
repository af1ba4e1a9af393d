package io.metaquorum.metadata.loader;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.metadata.snapshot.ImageSnapshotLoader;
import io.metaquorum.metadata.snapshot.LoadedSnapshot;
import io.metaquorum.metadata.snapshot.RaftStateRecords;
import io.metaquorum.metadata.snapshot.SnapshotScheduler;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every node's replay of the metadata log (under the controller's state machine on a
 * controller, the broker's on a broker): replays committed batches
 * into an immutable {@link MetadataImage} and, every {@code snapshotTriggerBytes} of
 * committed record bytes, hands the image to a {@link SnapshotScheduler} to be written as a
 * snapshot (on a thread of its own in a node, so the driver never waits for it).
 *
 * <p>Called by the raft core on the driver thread; {@link #image()} may be read from any
 * thread (the image is immutable and published through a volatile field). Deterministic:
 * no clock, no thread. A snapshot is loaded by streaming: its records are decoded batch by
 * batch into a {@link MetadataDelta} ({@link ImageSnapshotLoader}).
 *
 * <p>Invariant: committed batches arrive contiguously from {@code image.committedEndOffset()}.
 */
public final class MetadataLoader implements RaftListener {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataLoader.class);

    private final String logPrefix;
    private final long snapshotTriggerBytes;
    private final SnapshotScheduler snapshots;
    /** Published together with {@link #status} on the driver thread; each is immutable. */
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private volatile LoaderStatus status = LoaderStatus.INITIAL;
    /**
     * {@link #image} with the topics changed since the image before it, published right after
     * it. Invariant: once the driver thread has left a commit or a snapshot load,
     * {@code lastUpdate.image() == image}.
     */
    private volatile ImageUpdate lastUpdate = ImageUpdate.unchanged(MetadataImage.EMPTY);
    /** Record bytes committed since the last snapshot was scheduled or loaded. */
    private long bytesSinceSnapshot;
    /** Raft's voter set as of {@link #image}, for the snapshots of it. */
    private final RaftStateRecords raftState = new RaftStateRecords();

    /**
     * @param logPrefix            node context for log lines, e.g. {@code "[node 1] "}
     * @param snapshotTriggerBytes {@code metadata.log.max.record.bytes.between.snapshots}
     * @param snapshots            writes the snapshots this loader decides to take
     */
    public MetadataLoader(String logPrefix, long snapshotTriggerBytes, SnapshotScheduler snapshots) {
        Invariants.check(snapshotTriggerBytes > 0, "snapshot trigger must be > 0, got %d", snapshotTriggerBytes);
        this.logPrefix = logPrefix;
        this.snapshotTriggerBytes = snapshotTriggerBytes;
        this.snapshots = snapshots;
    }

    /** The latest committed image; safe from any thread. */
    public MetadataImage image() {
        return image;
    }

    /**
     * The latest committed image with the topics that changed since the image before it (not
     * listed after a snapshot load, which replaces the image whole), for what consumes images
     * by their changes; safe from any thread, consistent with {@link #image()} on the driver
     * thread.
     */
    public ImageUpdate lastUpdate() {
        return lastUpdate;
    }

    /** This loader's counters and the leader raft last announced; safe from any thread. */
    public LoaderStatus status() {
        return status;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        if (batches.isEmpty()) {
            return;
        }
        MetadataImage current = image;
        MetadataDelta delta = MetadataDelta.recordingChanges(current);
        long expectedOffset = current.committedEndOffset();
        RecordBatch last = null;
        long replayed = 0;
        for (RecordBatch batch : batches) {
            Invariants.check(batch.getBaseOffset() == expectedOffset,
                    "committed batch at offset %d, expected %d", batch.getBaseOffset(), expectedOffset);
            replayed += replayBatch(delta, batch);
            expectedOffset = RecordBatches.endOffset(batch);
            last = batch;
        }
        status = status.withReplayed(replayed, last.getAppendTimeMs());
        image = delta.apply();
        lastUpdate = new ImageUpdate(image, current.lastCommittedOffset(), delta.topicChanges());
        maybeRequestSnapshot();
    }

    /** Replays one batch; returns the number of metadata (not control) records in it. */
    private long replayBatch(MetadataDelta delta, RecordBatch batch) {
        long offset = batch.getBaseOffset();
        long replayed = 0;
        for (ByteString bytes : RecordBatches.records(batch)) {
            if (batch.getControl()) {
                raftState.note(MetadataRecordCodec.decodeControl(bytes, offset), bytes);
                delta.advanceTo(offset, batch.getEpoch());
            } else {
                delta.replay(MetadataRecordCodec.decode(bytes, offset), offset, batch.getEpoch());
                replayed++;
            }
            bytesSinceSnapshot += bytes.size();
            offset++;
        }
        return replayed;
    }

    /** Past the trigger, schedules a snapshot of the image; if one is still being written, retries next commit. */
    private void maybeRequestSnapshot() {
        if (bytesSinceSnapshot < snapshotTriggerBytes) {
            return;
        }
        SnapshotTask task = SnapshotTask.of(image, status.lastCommittedTimeMs(), raftState.records());
        if (snapshots.trySchedule(task)) {
            LOG.info("{}{} record bytes committed since the last snapshot: writing one at offset {}", logPrefix,
                    bytesSinceSnapshot, task.id().offset());
            bytesSinceSnapshot = 0;
        }
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        LoadedSnapshot loaded = ImageSnapshotLoader.load(snapshotId, snapshot);
        image = loaded.image();
        status = status.withLoadedSnapshot(loaded.records(), loaded.lastContainedLogTimeMs());
        bytesSinceSnapshot = 0;
        lastUpdate = ImageUpdate.loaded(image);
        raftState.reset(loaded.raftRecords());
        LOG.info("{}loaded snapshot ({}, {}): {} records, {} bytes", logPrefix, snapshotId.offset(),
                snapshotId.epoch(), loaded.records(), snapshot.sizeBytes());
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        status = status.withLeader(leader.leaderId(), leader.epoch());
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        // The loader replays committed batches only; what a leader writes is the controller's.
    }

    @Override
    public void handleResign(int epoch) {
        // Nothing uncommitted is kept here.
    }
}
