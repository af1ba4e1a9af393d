package io.metaquorum.raft.storage;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.RecordBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link RaftLog} held in memory, exact to the port's contract. The raft core's unit
 * tests and the simulator use it (the simulator wraps it to model crashes: only
 * {@link #flushedEndOffset()} survives one), and the RocksDB log's property test uses it
 * as the model, so it favours being obviously right over being fast.
 *
 * <p>Durability is bookkeeping only: {@link #flush()} moves {@code flushedEndOffset} to
 * {@code endOffset}; a truncation below it pulls it down; a snapshot is durable when
 * installed, so it pushes it up to the snapshot's offset. {@link #close()} releases
 * nothing and keeps the content, so a simulated restart can reuse the object.
 *
 * <p>Batches are immutable protobuf objects whose CRC was checked on append; nothing can
 * change them afterwards, so reads do not check it again (the CRC guards a medium, and
 * there is none here).
 */
public final class InMemoryRaftLog implements RaftLog {
    /**
     * Invariant: contiguous, the first at {@code startOffset}, the last ending at
     * {@code endOffset}; epochs never decrease.
     */
    private final List<RecordBatch> batches = new ArrayList<>();
    /** Invariant: exactly the epochs of {@link #batches}, each with its first offset. */
    private final TreeMap<Integer, Long> epochStarts = new TreeMap<>();
    /** Invariant: equals the snapshot's offset, or 0 without a snapshot. */
    private long startOffset;
    private long endOffset;
    /** Invariant: {@code startOffset <= flushedEndOffset <= endOffset}. */
    private long flushedEndOffset;
    /** The one snapshot kept (older ones are deleted on install); null without one. */
    private OffsetAndEpoch snapshotId;
    private byte[] snapshotContent;

    @Override
    public long startOffset() {
        return startOffset;
    }

    @Override
    public long endOffset() {
        return endOffset;
    }

    @Override
    public long flushedEndOffset() {
        return flushedEndOffset;
    }

    @Override
    public int lastEpoch() {
        return batches.isEmpty() ? snapshotEpoch() : batches.get(batches.size() - 1).getEpoch();
    }

    @Override
    public void append(RecordBatch batch) {
        RaftLogRules.checkAppend(batch, endOffset, lastEpoch());
        if (batches.isEmpty() || batch.getEpoch() > lastEpoch()) {
            epochStarts.put(batch.getEpoch(), batch.getBaseOffset());
        }
        batches.add(batch);
        endOffset = RecordBatches.endOffset(batch);
    }

    @Override
    public void flush() {
        flushedEndOffset = endOffset;
    }

    @Override
    public boolean hasUnflushed() {
        return flushedEndOffset < endOffset;
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        RaftLogRules.checkRead(fromOffset, maxBytes, startOffset, endOffset);
        List<RecordBatch> result = new ArrayList<>();
        long bytes = 0;
        for (int i = RecordBatches.indexOfBatchHolding(batches, fromOffset); i >= 0 && i < batches.size(); i++) {
            RecordBatch batch = batches.get(i);
            int size = RecordBatches.sizeInBytes(batch);
            if (!result.isEmpty() && bytes + size > maxBytes) {
                break;
            }
            result.add(batch);
            bytes += size;
        }
        return result;
    }

    @Override
    public void truncateTo(long offset) {
        RaftLogRules.checkTruncate(offset, startOffset);
        if (offset >= endOffset) {
            return;
        }
        int index = RecordBatches.indexOfBatchHolding(batches, offset);
        RecordBatch holding = batches.get(index);
        batches.subList(index, batches.size()).clear();
        if (holding.getBaseOffset() < offset) {
            batches.add(RecordBatches.truncate(holding, offset));
        }
        epochStarts.values().removeIf(start -> start >= offset);
        endOffset = offset;
        flushedEndOffset = Math.min(flushedEndOffset, offset);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return RaftLogRules.endOffsetForEpoch(epochStarts, epoch, startOffset, snapshotEpoch(), endOffset);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return Optional.ofNullable(snapshotId);
    }

    @Override
    public SnapshotWriter createSnapshot(OffsetAndEpoch id) {
        return new InMemorySnapshotWriter(id);
    }

    @Override
    public void installSnapshot(SnapshotWriter frozen) {
        if (!(frozen instanceof InMemorySnapshotWriter writer)) {
            throw new IllegalArgumentException("snapshot " + frozen.id() + " was not written for this log");
        }
        byte[] content = writer.frozenContent();
        OffsetAndEpoch id = writer.id();
        RaftLogRules.checkSnapshotNotOlder(id, startOffset, snapshotEpoch());
        if (matches(id)) {
            batches.subList(0, RecordBatches.indexOfBatchStartingAt(batches, id.offset(), endOffset)).clear();
            rebuildEpochStarts();
        } else {
            batches.clear();
            epochStarts.clear();
            endOffset = id.offset();
        }
        startOffset = id.offset();
        // The snapshot is durable, so everything up to its offset is; nothing beyond is left after a reset.
        flushedEndOffset = Math.min(Math.max(flushedEndOffset, startOffset), endOffset);
        snapshotId = id;
        snapshotContent = content;
        Invariants.check(startOffset <= flushedEndOffset && flushedEndOffset <= endOffset,
                "offsets out of order after snapshot %s: start %d flushed %d end %d",
                id, startOffset, flushedEndOffset, endOffset);
    }

    @Override
    public long snapshotSize(OffsetAndEpoch id) {
        return requireSnapshot(id).length;
    }

    @Override
    public byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes) {
        byte[] content = requireSnapshot(id);
        if (position < 0 || position > content.length || maxBytes < 0) {
            throw new IllegalArgumentException("snapshot " + id + " of " + content.length
                    + " bytes cannot be read at position " + position + " for " + maxBytes + " bytes");
        }
        int from = (int) position;
        return Arrays.copyOfRange(content, from, from + Math.min(maxBytes, content.length - from));
    }

    @Override
    public void close() {
        // Nothing to release; the content stays for a simulated restart.
    }

    private int snapshotEpoch() {
        return snapshotId == null ? 0 : snapshotId.epoch();
    }

    /**
     * A snapshot matches the log when it ends at a batch boundary inside the log and the
     * record just below it has the snapshot's epoch (at the log start, that record is the
     * current snapshot's last one).
     */
    private boolean matches(OffsetAndEpoch id) {
        if (id.offset() == startOffset) {
            return id.epoch() == snapshotEpoch();
        }
        int index = RecordBatches.indexOfBatchStartingAt(batches, id.offset(), endOffset);
        return index > 0 && batches.get(index - 1).getEpoch() == id.epoch();
    }

    private void rebuildEpochStarts() {
        epochStarts.clear();
        for (RecordBatch batch : batches) {
            epochStarts.putIfAbsent(batch.getEpoch(), batch.getBaseOffset());
        }
    }

    private byte[] requireSnapshot(OffsetAndEpoch id) {
        if (snapshotId == null || !snapshotId.equals(id)) {
            throw new IllegalArgumentException("no snapshot " + id + "; the latest is " + snapshotId);
        }
        return snapshotContent;
    }
}
