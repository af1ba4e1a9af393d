package io.metaquorum.raft.core.context;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * This replica's high watermark and how far the state machine has applied. Hands
 * committed batches to the listener in order, loading the latest snapshot first when the
 * state machine is behind the log start.
 *
 * <p>Invariants: {@code highWatermark} never decreases within an incarnation;
 * {@code appliedOffset <= highWatermark} except right after a snapshot load (a snapshot
 * holds only committed records, so its offset is a committed offset).
 */
public final class CommitTracker {
    /** Bound on the record bytes handed to the listener in one poll. */
    static final int APPLY_BYTES_MAX = 8 << 20;

    private final int localId;
    private final RaftLog log;
    private final RaftListener listener;
    private long highWatermark;
    private long appliedOffset;

    public CommitTracker(int localId, RaftLog log, RaftListener listener) {
        this.localId = localId;
        this.log = log;
        this.listener = listener;
        // A snapshot holds only committed records: the log start is committed from the outset.
        this.highWatermark = log.startOffset();
    }

    public long highWatermark() {
        return highWatermark;
    }

    public long appliedOffset() {
        return appliedOffset;
    }

    /** Raises the high watermark (never lowers it). */
    public void advanceTo(long offset) {
        if (offset > highWatermark) {
            highWatermark = offset;
        }
    }

    /** Applies what is committed and not yet applied; returns true if more remains for the next poll. */
    public boolean apply() {
        if (appliedOffset < log.startOffset()) {
            loadLatestSnapshot();
        }
        long limit = Math.min(highWatermark, log.endOffset());
        int bytes = 0;
        while (appliedOffset < limit && bytes < APPLY_BYTES_MAX) {
            List<RecordBatch> batches = log.read(appliedOffset, APPLY_BYTES_MAX - bytes);
            List<RecordBatch> committed = new ArrayList<>();
            for (RecordBatch batch : batches) {
                if (RecordBatches.endOffset(batch) > limit) {
                    break;
                }
                Invariants.check(batch.getBaseOffset() == appliedOffset || committed.size() > 0,
                        "node %d: applying batch at %d but applied up to %d", localId, batch.getBaseOffset(),
                        appliedOffset);
                committed.add(batch);
                bytes += batch.getSerializedSize();
            }
            if (committed.isEmpty()) {
                break;
            }
            appliedOffset = RecordBatches.endOffset(committed.get(committed.size() - 1));
            listener.handleCommit(committed);
        }
        return appliedOffset < limit && bytes >= APPLY_BYTES_MAX;
    }

    /** A snapshot was installed in the log: the state machine must take it before going on. */
    public void onSnapshotInstalled(OffsetAndEpoch id) {
        advanceTo(id.offset());
    }

    private void loadLatestSnapshot() {
        Optional<OffsetAndEpoch> latest = log.latestSnapshot();
        Invariants.check(latest.isPresent(), "node %d: log starts at %d without a snapshot", localId,
                log.startOffset());
        OffsetAndEpoch id = latest.get();
        // Streamed: the listener reads the file chunk by chunk, never all of it at once.
        listener.handleLoadSnapshot(id, SnapshotReader.of(log, id));
        appliedOffset = id.offset();
        advanceTo(id.offset());
    }
}
