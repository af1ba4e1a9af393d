package io.metaquorum.metadata.loader;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.core.RaftCore;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.snapshot.SnapshotCodec;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of a node until the full controller exists: replays committed batches
 * into an immutable {@link MetadataImage} and writes a snapshot of it every
 * {@code snapshotTriggerBytes} of committed record bytes.
 *
 * <p>Called by the raft core on the driver thread; {@link #image()} may be read from any
 * thread (the image is immutable and published through a volatile field). Deterministic:
 * no clock, no thread; snapshot creation is handed back to the driver through
 * {@code coreTasks} (production: {@code raftNode::execute}) because the core must not be
 * re-entered from inside {@code handleCommit}.
 *
 * <p>Invariant: committed batches arrive contiguously from {@code image.committedEndOffset()}.
 */
public final class MetadataLoader implements RaftListener {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataLoader.class);

    private final String logPrefix;
    private final long snapshotTriggerBytes;
    private final int snapshotBatchRecordsMax;
    private final Consumer<Consumer<RaftCore>> coreTasks;
    /** Published together with {@link #status} on the driver thread; each is immutable. */
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private volatile LoaderStatus status = LoaderStatus.INITIAL;
    /** Record bytes committed since the last snapshot was requested or loaded. */
    private long bytesSinceSnapshot;

    /**
     * @param logPrefix               node context for log lines, e.g. {@code "[node 1] "}
     * @param snapshotTriggerBytes    {@code metadata.log.max.record.bytes.between.snapshots}
     * @param snapshotBatchRecordsMax records per batch inside a snapshot file
     * @param coreTasks               runs a task on the driver thread between two polls
     */
    public MetadataLoader(String logPrefix, long snapshotTriggerBytes, int snapshotBatchRecordsMax,
                          Consumer<Consumer<RaftCore>> coreTasks) {
        Invariants.check(snapshotTriggerBytes > 0, "snapshot trigger must be > 0, got %d", snapshotTriggerBytes);
        Invariants.check(snapshotBatchRecordsMax > 0, "snapshot batch size must be > 0, got %d",
                snapshotBatchRecordsMax);
        this.logPrefix = logPrefix;
        this.snapshotTriggerBytes = snapshotTriggerBytes;
        this.snapshotBatchRecordsMax = snapshotBatchRecordsMax;
        this.coreTasks = coreTasks;
    }

    /** The latest committed image; safe from any thread. */
    public MetadataImage image() {
        return image;
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
        MetadataDelta delta = new MetadataDelta(current);
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
        maybeRequestSnapshot();
    }

    /** Replays one batch; returns the number of metadata (not control) records in it. */
    private long replayBatch(MetadataDelta delta, RecordBatch batch) {
        long offset = batch.getBaseOffset();
        long replayed = 0;
        for (ByteString bytes : RecordBatches.records(batch)) {
            if (batch.getControl()) {
                MetadataRecordCodec.decodeControl(bytes, offset);
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

    private void maybeRequestSnapshot() {
        if (bytesSinceSnapshot < snapshotTriggerBytes) {
            return;
        }
        MetadataImage snapshotImage = image;
        long lastTimeMs = status.lastCommittedTimeMs();
        long endOffset = snapshotImage.committedEndOffset();
        bytesSinceSnapshot = 0;
        LOG.info("{}{} record bytes committed since the last snapshot: writing one at offset {}", logPrefix,
                snapshotTriggerBytes, endOffset);
        coreTasks.accept(core -> {
            OffsetAndEpoch id = core.snapshotIdAt(endOffset);
            core.createSnapshot(id, snapshotContent(id, snapshotImage, lastTimeMs, snapshotBatchRecordsMax));
        });
    }

    /**
     * The snapshot of {@code snapshotImage} named {@code id}: the image written as records,
     * with {@code lastTimeMs}, the append time of its last record, in the header.
     */
    public static byte[] snapshotContent(OffsetAndEpoch id, MetadataImage snapshotImage, long lastTimeMs,
                                         int batchRecordsMax) {
        List<ByteString> records = MetadataRecordCodec.encodeAll(snapshotImage.toRecords());
        return SnapshotCodec.encode(id, lastTimeMs, records, batchRecordsMax);
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, byte[] content) {
        DecodedSnapshot snapshot = SnapshotCodec.decode(content);
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        // A snapshot's records have no offsets of their own: they are numbered so that the
        // last one stands at the snapshot's last contained offset.
        long offset = snapshotId.offset() - snapshot.records().size();
        for (ByteString bytes : snapshot.records()) {
            delta.replay(MetadataRecordCodec.decode(bytes, offset), offset, snapshotId.epoch());
            offset++;
        }
        if (snapshotId.offset() > 0 && snapshot.records().isEmpty()) {
            delta.advanceTo(snapshotId.offset() - 1, snapshotId.epoch());
        }
        image = delta.apply();
        status = status.withLoadedSnapshot(snapshot.records().size(), snapshot.lastContainedLogTimeMs());
        bytesSinceSnapshot = 0;
        LOG.info("{}loaded snapshot ({}, {}): {} records", logPrefix, snapshotId.offset(), snapshotId.epoch(),
                snapshot.records().size());
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
