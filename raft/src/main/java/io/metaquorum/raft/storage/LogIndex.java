package io.metaquorum.raft.storage;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.RecordBatch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The bookkeeping every {@link RaftLog} keeps beside its batches, in one place so the
 * RocksDB log and the in-memory logs cannot drift apart on it: where the log starts (its
 * snapshot), where it ends and up to where it is durable, and where each epoch starts. It
 * answers {@link RaftLog#lastEpoch()} and {@link RaftLog#endOffsetForEpoch} and applies the
 * port's rules for appends, truncations and snapshot installs; the log stores the batches.
 *
 * <p>A change that the log must also persist comes in two steps: the log asks what the change
 * drops ({@link #epochsFrom}, {@link #planStartMove}), writes that, and only then applies it
 * here, so a failed write leaves this index as the storage still is.
 *
 * <p>Deterministic: sorted maps only, no clock.
 */
public final class LogIndex {
    /**
     * Invariant: each epoch present in the log with its first offset; keys and values rise
     * together, the first value is {@code startOffset} and every value is below {@code endOffset}.
     */
    private final TreeMap<Integer, Long> epochStarts;
    /** The snapshot the log starts after (the only one kept); null without one, the log then starts at 0. */
    private OffsetAndEpoch snapshotId;
    private long endOffset;
    /** Invariant: {@code startOffset <= flushedEndOffset <= endOffset}. */
    private long flushedEndOffset;

    /** What installing a snapshot does to the log: keep the batches after it, or drop them all. */
    public record StartMove(OffsetAndEpoch id, boolean keepsBatches, List<Integer> droppedEpochs,
                            OptionalInt continuingEpoch) {
    }

    private LogIndex(OffsetAndEpoch snapshotId, TreeMap<Integer, Long> epochStarts, long endOffset) {
        this.snapshotId = snapshotId;
        this.epochStarts = epochStarts;
        this.endOffset = endOffset;
        this.flushedEndOffset = endOffset;
    }

    /** An empty log at offset 0, without a snapshot. */
    public static LogIndex empty() {
        return new LogIndex(null, new TreeMap<>(), 0);
    }

    /** The index of a log read back from storage: all of it is durable. */
    public static LogIndex recovered(OffsetAndEpoch snapshotId, NavigableMap<Integer, Long> epochStarts,
                                     long endOffset) {
        return new LogIndex(snapshotId, new TreeMap<>(epochStarts), endOffset);
    }

    /** The index of {@code batches} after {@code snapshotId} (null for none), all durable. */
    public static LogIndex of(OffsetAndEpoch snapshotId, List<RecordBatch> batches) {
        LogIndex index = new LogIndex(snapshotId, new TreeMap<>(), snapshotId == null ? 0 : snapshotId.offset());
        batches.forEach(index::append);
        index.flush();
        return index;
    }

    public long startOffset() {
        return snapshotId == null ? 0 : snapshotId.offset();
    }

    public long endOffset() {
        return endOffset;
    }

    public long flushedEndOffset() {
        return flushedEndOffset;
    }

    public boolean hasUnflushed() {
        return flushedEndOffset < endOffset;
    }

    public Optional<OffsetAndEpoch> latestSnapshot() {
        return Optional.ofNullable(snapshotId);
    }

    /** The epoch of the last batch, else of the snapshot, else 0. */
    public int lastEpoch() {
        return epochStarts.isEmpty() ? snapshotEpoch() : epochStarts.lastKey();
    }

    /** Each epoch present in the log and its first offset, read-only. */
    public NavigableMap<Integer, Long> epochStarts() {
        return Collections.unmodifiableNavigableMap(epochStarts);
    }

    /**
     * Accounts for {@code batch} appended at the end, after {@link RaftLogRules#checkAppend}.
     * True if it starts a new epoch: the log stores that epoch's start with the batch.
     */
    public boolean append(RecordBatch batch) {
        RaftLogRules.checkAppend(batch, endOffset, lastEpoch());
        boolean newEpoch = epochStarts.isEmpty() || batch.getEpoch() > epochStarts.lastKey();
        if (newEpoch) {
            epochStarts.put(batch.getEpoch(), batch.getBaseOffset());
        }
        endOffset = RecordBatches.endOffset(batch);
        return newEpoch;
    }

    /** Everything appended is durable now. */
    public void flush() {
        flushedEndOffset = endOffset;
    }

    /** Throws unless a read from {@code fromOffset} of up to {@code maxBytes} is valid. */
    public void checkRead(long fromOffset, int maxBytes) {
        RaftLogRules.checkRead(fromOffset, maxBytes, startOffset(), endOffset);
    }

    /**
     * Whether {@link RaftLog#truncateTo} at {@code offset} removes anything; throws if
     * {@code offset} lies below the log start.
     */
    public boolean truncates(long offset) {
        RaftLogRules.checkTruncate(offset, startOffset());
        return offset < endOffset;
    }

    /** The epochs a truncation to {@code offset} drops: those starting at or above it, in order. */
    public List<Integer> epochsFrom(long offset) {
        List<Integer> epochs = new ArrayList<>();
        epochStarts.forEach((epoch, start) -> {
            if (start >= offset) {
                epochs.add(epoch);
            }
        });
        return epochs;
    }

    /**
     * Removes everything at or above {@code offset} (the log has cut its batches there): the
     * epochs starting there or later go, and the durable boundary cannot stay above the end.
     */
    public void truncateTo(long offset) {
        if (!truncates(offset)) {
            return;
        }
        epochStarts.values().removeIf(start -> start >= offset);
        endOffset = offset;
        flushedEndOffset = Math.min(flushedEndOffset, offset);
    }

    /**
     * {@link RaftLog#endOffsetForEpoch}: the largest epoch at or below {@code epoch} and where
     * it ends (the next epoch's start, or the log end); below every epoch in the log, the log
     * start and the snapshot's epoch.
     */
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        Map.Entry<Integer, Long> known = epochStarts.floorEntry(epoch);
        if (known == null) {
            return new OffsetAndEpoch(startOffset(), snapshotEpoch());
        }
        Map.Entry<Integer, Long> next = epochStarts.higherEntry(known.getKey());
        return new OffsetAndEpoch(next == null ? endOffset : next.getValue(), known.getKey());
    }

    /** The epoch of the record at {@code offset}, which must lie in {@code [startOffset, endOffset)}. */
    public int epochAt(long offset) {
        Invariants.check(offset >= startOffset() && offset < endOffset, "offset %d is outside the log [%d, %d)",
                offset, startOffset(), endOffset);
        int holding = epochStarts.firstKey();
        for (Map.Entry<Integer, Long> entry : epochStarts.entrySet()) {
            if (entry.getValue() > offset) {
                break;
            }
            holding = entry.getKey();
        }
        return holding;
    }

    /** Throws {@link IllegalArgumentException} if snapshot {@code id} is older than the log start. */
    public void checkSnapshotNotOlder(OffsetAndEpoch id) {
        RaftLogRules.checkSnapshotNotOlder(id, startOffset(), snapshotEpoch());
    }

    /**
     * What installing snapshot {@code id} does. It matches the log, and the batches after it
     * stay, when it is the current log start, or when it ends at a batch boundary inside the
     * log ({@code atBatchBoundary}: a batch starts at its offset, or the log ends there) and
     * the record just below has its epoch. Otherwise the whole log goes and restarts empty at
     * its offset.
     */
    public StartMove planStartMove(OffsetAndEpoch id, boolean atBatchBoundary) {
        long offset = id.offset();
        boolean matches = offset == startOffset() ? id.epoch() == snapshotEpoch()
                : atBatchBoundary && offset > startOffset() && offset <= endOffset && epochAt(offset - 1) == id.epoch();
        List<Integer> dropped = new ArrayList<>();
        for (Map.Entry<Integer, Long> entry : epochStarts.entrySet()) {
            if (!matches || entry.getValue() < offset) {
                dropped.add(entry.getKey());
            }
        }
        OptionalInt continuing = matches && offset < endOffset ? OptionalInt.of(epochAt(offset)) : OptionalInt.empty();
        return new StartMove(id, matches, List.copyOf(dropped), continuing);
    }

    /** Applies {@code move}, planned by {@link #planStartMove} on this very state. */
    public void moveStart(StartMove move) {
        OffsetAndEpoch id = move.id();
        move.droppedEpochs().forEach(epochStarts::remove);
        move.continuingEpoch().ifPresent(epoch -> epochStarts.put(epoch, id.offset()));
        if (!move.keepsBatches()) {
            endOffset = id.offset();
        }
        snapshotId = id;
        // The snapshot is durable, so everything up to its offset is; nothing beyond is left after a reset.
        flushedEndOffset = Math.min(Math.max(flushedEndOffset, id.offset()), endOffset);
        Invariants.check(startOffset() <= flushedEndOffset && flushedEndOffset <= endOffset,
                "offsets out of order after snapshot %s: start %d flushed %d end %d",
                id, startOffset(), flushedEndOffset, endOffset);
    }

    private int snapshotEpoch() {
        return snapshotId == null ? 0 : snapshotId.epoch();
    }
}
