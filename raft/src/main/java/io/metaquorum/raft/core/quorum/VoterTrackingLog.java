package io.metaquorum.raft.core.quorum;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.snapshot.SnapshotDecoder;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The core's view of the log: the log itself, with every VotersRecord that goes in or out
 * noted in a {@link VoterSetHistory}. Appends, truncations and snapshot installs all pass
 * here, so the active voter set cannot drift from the log, whichever path changed it.
 * {@code onChange} hears the active set after each change that may have moved it.
 */
public final class VoterTrackingLog implements RaftLog {
    /** How much of the log is read at a time when scanning it at start-up. */
    private static final int SCAN_BYTES_MAX = 1 << 20;

    private final RaftLog log;
    private final VoterSetHistory history;
    private final Consumer<VoterSet> onChange;

    private VoterTrackingLog(RaftLog log, VoterSetHistory history, Consumer<VoterSet> onChange) {
        this.log = log;
        this.history = history;
        this.onChange = onChange;
    }

    /** Wraps {@code log}, reading the voter sets its latest snapshot and its batches hold. */
    public static VoterTrackingLog open(RaftLog log, VoterSetHistory history, Consumer<VoterSet> onChange) {
        VoterTrackingLog tracking = new VoterTrackingLog(log, history, onChange);
        log.latestSnapshot().ifPresent(id -> history.startAt(id.offset(), snapshotVoters(log, id), false));
        long offset = log.startOffset();
        while (offset < log.endOffset()) {
            List<RecordBatch> batches = log.read(offset, SCAN_BYTES_MAX);
            for (RecordBatch batch : batches) {
                tracking.note(batch);
                offset = RecordBatches.endOffset(batch);
            }
        }
        return tracking;
    }

    /** The voter set a stored snapshot holds, if it was written with one. */
    static Optional<VoterSet> snapshotVoters(RaftLog log, OffsetAndEpoch id) {
        SnapshotDecoder decoder = SnapshotDecoder.of(SnapshotReader.of(log, id));
        decoder.nextBatch();
        Optional<VoterSet> voters = Optional.empty();
        for (ControlRecord record : decoder.raftRecords()) {
            if (record.hasVoters()) {
                voters = Optional.of(VoterSet.fromRecord(record.getVoters()));
            }
        }
        return voters;
    }

    public VoterSetHistory history() {
        return history;
    }

    private void note(RecordBatch batch) {
        if (!batch.getControl()) {
            return;
        }
        long offset = batch.getBaseOffset();
        for (ByteString bytes : RecordBatches.records(batch)) {
            ControlRecord record;
            try {
                record = ControlRecord.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new CorruptLogException(offset, "control record at offset " + offset + " does not parse: "
                        + e.getMessage());
            }
            if (record.hasVoters()) {
                history.addAt(offset, VoterSet.fromRecord(record.getVoters()));
            }
            offset++;
        }
    }

    @Override
    public void append(RecordBatch batch) {
        log.append(batch);
        if (batch.getControl()) {
            note(batch);
            onChange.accept(history.active());
        }
    }

    @Override
    public void truncateTo(long offset) {
        log.truncateTo(offset);
        history.truncateTo(offset);
        onChange.accept(history.active());
    }

    @Override
    public void installSnapshot(SnapshotWriter frozen) {
        log.installSnapshot(frozen);
        OffsetAndEpoch id = frozen.id();
        history.startAt(id.offset(), snapshotVoters(log, id), log.endOffset() == id.offset());
        onChange.accept(history.active());
    }

    @Override
    public long startOffset() {
        return log.startOffset();
    }

    @Override
    public long endOffset() {
        return log.endOffset();
    }

    @Override
    public long flushedEndOffset() {
        return log.flushedEndOffset();
    }

    @Override
    public int lastEpoch() {
        return log.lastEpoch();
    }

    @Override
    public void flush() {
        log.flush();
    }

    @Override
    public boolean hasUnflushed() {
        return log.hasUnflushed();
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        return log.read(fromOffset, maxBytes);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return log.endOffsetForEpoch(epoch);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return log.latestSnapshot();
    }

    @Override
    public SnapshotWriter createSnapshot(OffsetAndEpoch id) {
        return log.createSnapshot(id);
    }

    @Override
    public long snapshotSize(OffsetAndEpoch id) {
        return log.snapshotSize(id);
    }

    @Override
    public byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes) {
        return log.readSnapshot(id, position, maxBytes);
    }

    @Override
    public void close() {
        log.close();
    }
}
