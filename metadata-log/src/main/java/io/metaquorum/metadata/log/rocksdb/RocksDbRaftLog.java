package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.common.proto.AliasingParser;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.LogIndex;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocksdb.RocksIterator;

/**
 * The metadata log in RocksDB (docs/architecture.md §4). Column family {@code log} maps the
 * big-endian base offset to the serialized {@link RecordBatch} (which carries its own
 * CRC32C), {@code epochs} maps each epoch present in the log to its first offset, and
 * {@code meta} holds the id of the snapshot the log starts after. Snapshots are files
 * (see {@link SnapshotFiles}); only the latest is kept.
 *
 * <p>Durability: appends gather in one pending RocksDB write that {@link #flush()} applies
 * and syncs (group commit: one write and one WAL sync per drained batch, however many
 * batches it holds). The pending write goes out unsynced earlier when it grows past
 * {@link #PENDING_BYTES_MAX} or before anything reads RocksDB, truncates or moves the
 * log start, so RocksDB always holds every append by then. Truncation and snapshot
 * installation are synced writes, which also make every earlier append durable; the
 * flushed boundary is still only moved as the port's contract says (a lower bound).
 *
 * <p>Reads: an in-memory index of base offsets ({@link BatchOffsets}) finds the batch
 * holding an offset without touching RocksDB; the tail is served from {@link TailCache};
 * everything read from RocksDB is parsed and CRC-checked, and a failure is a
 * {@link CorruptLogException} naming the batch's offset. On open, the tail batch is
 * checked too, so a torn or corrupt tail stops the node at once.
 *
 * <p>Closing the log closes the database it shares with the quorum-state store.
 */
public final class RocksDbRaftLog implements RaftLog {
    /** Bytes of appends gathered before they are written out without waiting for the flush. */
    static final int PENDING_BYTES_MAX = 4 << 20;

    private final LogDatabase database;
    private final SnapshotFiles snapshots;
    private final TailCache tail;
    /** Invariant: the keys of the {@code log} family, contiguous from {@code startOffset} to {@code endOffset}. */
    private final BatchOffsets offsets;
    /**
     * Invariant: its epochs are the {@code epochs} family; its snapshot (the latest and only
     * kept) is the one recorded in {@code meta}.
     */
    private final LogIndex index;
    /** Appends not yet handed to RocksDB; null when there are none. */
    private LogWrite pending;
    private long pendingBytes;

    private RocksDbRaftLog(LogDatabase database, SnapshotFiles snapshots, long tailCacheBytesMax,
                           RecoveredLog recovered) {
        this.database = database;
        this.snapshots = snapshots;
        this.tail = new TailCache(tailCacheBytesMax);
        this.offsets = recovered.offsets();
        this.index = LogIndex.recovered(recovered.snapshotId(), recovered.epochStarts(), recovered.endOffset());
    }

    /**
     * Rebuilds the log from the database and the snapshot directory, finishing a snapshot
     * installation that a crash interrupted.
     */
    static RocksDbRaftLog open(LogDatabase database, SnapshotFiles snapshots, long tailCacheBytesMax,
                               boolean readOnly) {
        LogRecovery recovery = new LogRecovery(database, snapshots, readOnly);
        RocksDbRaftLog log = new RocksDbRaftLog(database, snapshots, tailCacheBytesMax, recovery.recoverLog());
        recovery.finishSnapshotInstall(log);
        return log;
    }

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
        boolean newEpoch = index.append(batch);
        if (pending == null) {
            pending = database.newWrite();
        }
        pending.putBatch(batch);
        if (newEpoch) {
            // The epoch's start goes in the same write as its first batch: durable together.
            pending.putEpochStart(batch.getEpoch(), batch.getBaseOffset());
        }
        offsets.add(batch.getBaseOffset());
        tail.add(batch);
        pendingBytes += RecordBatches.sizeInBytes(batch);
        if (pendingBytes >= PENDING_BYTES_MAX) {
            writePending(false);
        }
    }

    @Override
    public void flush() {
        if (!hasUnflushed()) {
            return;
        }
        if (pending != null) {
            writePending(true);
        } else {
            database.syncWal();
        }
        index.flush();
    }

    @Override
    public boolean hasUnflushed() {
        return index.hasUnflushed();
    }

    /** Hands the pending appends to RocksDB, synced or not. */
    private void writePending(boolean sync) {
        if (pending == null) {
            return;
        }
        try (LogWrite write = pending) {
            pending = null;
            pendingBytes = 0;
            if (sync) {
                write.commitSynced();
            } else {
                write.commitBuffered();
            }
        }
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        index.checkRead(fromOffset, maxBytes);
        if (fromOffset == index.endOffset()) {
            return List.of();
        }
        int batchIndex = offsets.floorIndex(fromOffset);
        long baseOffset = offsets.get(batchIndex);
        return tail.holds(baseOffset) ? tail.read(baseOffset, maxBytes) : readStored(batchIndex, maxBytes);
    }

    @Override
    public void truncateTo(long offset) {
        if (!index.truncates(offset)) {
            return;
        }
        writePending(false);
        int batchIndex = offsets.floorIndex(offset);
        long baseOffset = offsets.get(batchIndex);
        RecordBatch cut = baseOffset < offset ? RecordBatches.truncate(batchAt(batchIndex), offset) : null;
        // Synced before it returns, as the port requires: the removed tail must not come back.
        try (LogWrite write = database.newWrite()) {
            write.deleteBatches(baseOffset, index.endOffset());
            if (cut != null) {
                write.putBatch(cut);
            }
            index.epochsFrom(offset).forEach(write::deleteEpoch);
            write.commitSynced();
        }
        offsets.keepFirst(cut != null ? batchIndex + 1 : batchIndex);
        tail.truncateTo(offset);
        index.truncateTo(offset);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return index.endOffsetForEpoch(epoch);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return index.latestSnapshot();
    }

    /** Thread-safe: the writer only touches its own temporary file until it is installed. */
    @Override
    public SnapshotWriter createSnapshot(OffsetAndEpoch id) {
        return snapshots.newWriter(id);
    }

    @Override
    public void installSnapshot(SnapshotWriter frozen) {
        if (!(frozen instanceof SnapshotFileWriter writer)) {
            throw new IllegalArgumentException("snapshot " + frozen.id() + " was not written for this log");
        }
        OffsetAndEpoch id = writer.id();
        index.checkSnapshotNotOlder(id);
        snapshots.commit(writer);
        Optional<OffsetAndEpoch> previous = index.latestSnapshot();
        moveStartTo(id);
        if (previous.isPresent() && !previous.get().equals(id)) {
            snapshots.delete(previous.get());
        }
    }

    @Override
    public long snapshotSize(OffsetAndEpoch id) {
        requireSnapshot(id);
        return snapshots.size(id);
    }

    @Override
    public byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes) {
        requireSnapshot(id);
        return snapshots.read(id, position, maxBytes);
    }

    /** Closes the whole database, shared with the quorum-state store. Idempotent. */
    @Override
    public void close() {
        try {
            // A clean close keeps every append, as RocksDB keeps its unsynced writes on close.
            writePending(false);
        } finally {
            database.close();
        }
    }

    /**
     * Makes the stored snapshot {@code id} the log start: if it matches the log (ends at a
     * batch boundary inside it, and the record just below has its epoch) the batches below
     * it are deleted, else the whole log is. One synced write, which is also what marks the
     * installation complete ({@link LogRecovery} finishes one a crash interrupted).
     */
    void moveStartTo(OffsetAndEpoch id) {
        writePending(false);
        int keptFrom = batchIndexStartingAt(id.offset());
        LogIndex.StartMove move = index.planStartMove(id, keptFrom >= 0);
        long startOffset = index.startOffset();
        long endOffset = index.endOffset();
        try (LogWrite write = database.newWrite()) {
            write.deleteBatches(startOffset, move.keepsBatches() ? id.offset() : endOffset);
            move.droppedEpochs().forEach(write::deleteEpoch);
            move.continuingEpoch().ifPresent(epoch -> write.putEpochStart(epoch, id.offset()));
            write.putMeta(Keys.LOG_START, Keys.snapshotIdValue(id));
            write.commitSynced();
        }
        offsets.dropFirst(move.keepsBatches() ? keptFrom : offsets.size());
        if (move.keepsBatches()) {
            tail.dropBefore(id.offset());
        } else {
            tail.clear();
        }
        index.moveStart(move);
    }

    /** The index of the batch starting at {@code offset} (the batch count at the end), else -1. */
    private int batchIndexStartingAt(long offset) {
        if (offset == index.endOffset()) {
            return offsets.size();
        }
        return offset > index.endOffset() ? -1 : offsets.indexOf(offset);
    }

    private void requireSnapshot(OffsetAndEpoch id) {
        if (!index.latestSnapshot().equals(Optional.of(id))) {
            throw new IllegalArgumentException("no snapshot " + id + "; the latest is " + index.latestSnapshot());
        }
    }

    /** The {@code position}-th batch of the log, from the tail cache or else from RocksDB. */
    private RecordBatch batchAt(int position) {
        long baseOffset = offsets.get(position);
        if (tail.holds(baseOffset)) {
            return tail.get(baseOffset);
        }
        writePending(false);
        return parseStored(baseOffset, database.get(database.log(), Keys.offsetKey(baseOffset)));
    }

    /** Whole stored batches from the {@code fromIndex}-th on, up to {@code maxBytes} (at least one). */
    private List<RecordBatch> readStored(int fromIndex, int maxBytes) {
        writePending(false);
        List<RecordBatch> result = new ArrayList<>();
        long bytes = 0;
        try (RocksIterator iterator = database.newIterator(database.log())) {
            iterator.seek(Keys.offsetKey(offsets.get(fromIndex)));
            for (int position = fromIndex; position < offsets.size(); position++, iterator.next()) {
                long expected = offsets.get(position);
                if (!iterator.isValid()) {
                    database.checkIterator(iterator);
                    throw new CorruptLogException(expected, "batch is missing from the log");
                }
                long stored = Keys.offsetOf(iterator.key());
                if (stored != expected) {
                    throw new CorruptLogException(expected, "batch is missing; the next stored is at " + stored);
                }
                byte[] value = iterator.value();
                // The stored value is the batch's serialization, so its length is the batch's size:
                // a batch past the limit is neither parsed nor checked, as it is not served.
                if (!result.isEmpty() && bytes + value.length > maxBytes) {
                    break;
                }
                RecordBatch batch = parseStored(expected, value);
                long next = position + 1 < offsets.size() ? offsets.get(position + 1) : index.endOffset();
                if (RecordBatches.endOffset(batch) != next) {
                    throw new CorruptLogException(RecordBatches.endOffset(batch), "no stored batch holds offsets ["
                            + RecordBatches.endOffset(batch) + ", " + next + ")");
                }
                result.add(batch);
                bytes += value.length;
            }
        }
        return result;
    }

    /** Parses and verifies the value stored under {@code offset}; any problem names the offset. */
    static RecordBatch parseStored(long offset, byte[] value) {
        if (value == null) {
            throw new CorruptLogException(offset, "batch is missing from the log");
        }
        RecordBatch batch;
        try {
            // The records block points into the value instead of being copied out of it: the
            // array is this batch's alone (RocksDB returned a fresh one).
            batch = AliasingParser.parse(RecordBatch.parser(), value);
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptLogException(offset, "stored batch does not parse: " + e.getMessage());
        }
        if (batch.getBaseOffset() != offset) {
            throw new CorruptLogException(offset, "stored batch claims base offset " + batch.getBaseOffset());
        }
        return RecordBatches.requireValid(batch);
    }
}
