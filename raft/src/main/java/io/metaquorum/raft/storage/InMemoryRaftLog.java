package io.metaquorum.raft.storage;

import io.metaquorum.protocol.RecordBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

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
     * Invariant: contiguous, the first at the log start, the last ending at the log end;
     * epochs never decrease.
     */
    private final List<RecordBatch> batches = new ArrayList<>();
    /** Invariant: the bounds and epochs of {@link #batches}. */
    private final LogIndex index = LogIndex.empty();
    /** The content of the one snapshot kept (older ones are deleted on install); null without one. */
    private byte[] snapshotContent;

    @Override
    public long startOffset() {
        return index.startOffset();
    }

    @Override
    public long endOffset() {
        return index.endOffset();
    }

    @Override
    public long flushedEndOffset() {
        return index.flushedEndOffset();
    }

    @Override
    public int lastEpoch() {
        return index.lastEpoch();
    }

    @Override
    public void append(RecordBatch batch) {
        index.append(batch);
        batches.add(batch);
    }

    @Override
    public void flush() {
        index.flush();
    }

    @Override
    public boolean hasUnflushed() {
        return index.hasUnflushed();
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        index.checkRead(fromOffset, maxBytes);
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
        if (index.truncates(offset)) {
            RecordBatches.truncateTo(batches, offset);
            index.truncateTo(offset);
        }
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return index.endOffsetForEpoch(epoch);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return index.latestSnapshot();
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
        index.checkSnapshotNotOlder(id);
        int keptFrom = RecordBatches.indexOfBatchStartingAt(batches, id.offset(), index.endOffset());
        LogIndex.StartMove move = index.planStartMove(id, keptFrom >= 0);
        batches.subList(0, move.keepsBatches() ? keptFrom : batches.size()).clear();
        index.moveStart(move);
        snapshotContent = content;
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

    private byte[] requireSnapshot(OffsetAndEpoch id) {
        if (!index.latestSnapshot().equals(Optional.of(id))) {
            throw new IllegalArgumentException("no snapshot " + id + "; the latest is " + index.latestSnapshot());
        }
        return snapshotContent;
    }
}
