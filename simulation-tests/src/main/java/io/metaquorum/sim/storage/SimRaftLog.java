package io.metaquorum.sim.storage;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One process incarnation's log: the production {@link InMemoryRaftLog} as the view the
 * core reads and writes, over a {@link SimDisk} that only sees what a sync made durable.
 * Every append made since the last sync is pending; {@link #crash()} hands them to the
 * disk, which decides what survives. A truncation and a snapshot install are synced when
 * they return (the {@link RaftLog} contract), and sync the pending appends with them.
 *
 * <p>Opening recovers from the disk and checks every batch's CRC: a torn last batch (a
 * crash mid-write) is dropped, as a write-ahead log's recovery drops a torn tail; a bad
 * batch anywhere else is corruption and the node cannot start.
 *
 * <p>Fault model: write errors from the disk ({@code StorageException}, the node stops);
 * the broken {@link LogFaultMode}s for the checker self-test.
 */
public final class SimRaftLog implements RaftLog {
    private final SimDisk disk;
    private final InMemoryRaftLog memory;
    private final LogFaultMode mode;
    private final LogObserver observer;
    /** The appends made since the last sync, in order: what a crash may lose. */
    private final List<RecordBatch> pending = new ArrayList<>();
    private final boolean recoveredTornBatch;

    private SimRaftLog(SimDisk disk, InMemoryRaftLog memory, LogFaultMode mode, LogObserver observer,
                       boolean recoveredTornBatch) {
        this.disk = disk;
        this.memory = memory;
        this.mode = mode;
        this.observer = observer;
        this.recoveredTornBatch = recoveredTornBatch;
    }

    /** Recovers the log from {@code disk}; throws {@link CorruptLogException} on corruption. */
    public static SimRaftLog open(SimDisk disk, LogFaultMode mode, LogObserver observer) {
        DurableLog durable = disk.log();
        boolean torn = durable.dropTornTail();
        InMemoryRaftLog memory = new InMemoryRaftLog();
        if (durable.snapshotId() != null) {
            memory.installSnapshot(durable.snapshotId(), durable.snapshotContent());
        }
        for (RecordBatch batch : durable.batches()) {
            if (!RecordBatches.isValid(batch)) {
                throw new CorruptLogException(batch.getBaseOffset(), "node " + disk.nodeId() + ": CRC32C mismatch");
            }
            memory.append(batch);
        }
        memory.flush();
        return new SimRaftLog(disk, memory, mode, observer, torn);
    }

    /** The process died: the disk decides what of the pending writes survives. True if some were lost. */
    public boolean crash() {
        boolean lost = disk.crash(pending);
        pending.clear();
        return lost;
    }

    /** The OS writeback of {@link LogFaultMode#ACK_BEFORE_SYNC}: pending writes reach the disk. */
    public void writeback() {
        disk.sync(pending);
        pending.clear();
    }

    public boolean recoveredTornBatch() {
        return recoveredTornBatch;
    }

    public int nodeId() {
        return disk.nodeId();
    }

    /** The batch holding {@code offset}, for the checkers; empty if none does. */
    public Optional<RecordBatch> batchHolding(long offset) {
        if (offset < memory.startOffset() || offset >= memory.endOffset()) {
            return Optional.empty();
        }
        return Optional.of(memory.read(offset, 1).get(0));
    }

    @Override
    public long startOffset() {
        return memory.startOffset();
    }

    @Override
    public long endOffset() {
        return memory.endOffset();
    }

    @Override
    public long flushedEndOffset() {
        return mode == LogFaultMode.ACK_BEFORE_SYNC ? memory.endOffset() : memory.flushedEndOffset();
    }

    @Override
    public int lastEpoch() {
        return memory.lastEpoch();
    }

    @Override
    public void append(RecordBatch batch) {
        disk.maybeFailWrite("append", batch.getBaseOffset());
        memory.append(batch);
        pending.add(batch);
        observer.afterAppend(this, batch);
    }

    @Override
    public void flush() {
        if (mode == LogFaultMode.ACK_BEFORE_SYNC) {
            memory.flush();
            return;
        }
        disk.maybeFailWrite("sync", -1);
        memory.flush();
        disk.sync(pending);
        pending.clear();
    }

    @Override
    public boolean hasUnflushed() {
        return mode != LogFaultMode.ACK_BEFORE_SYNC && memory.hasUnflushed();
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        return memory.read(fromOffset, maxBytes);
    }

    @Override
    public void truncateTo(long offset) {
        observer.beforeTruncate(this, offset);
        if (mode != LogFaultMode.SKIP_TRUNCATION) {
            memory.truncateTo(offset);
            // Durable when it returns, as the port requires and RocksDB's synced write gives: the
            // earlier appends are synced with it (one WAL sync), then the tail is cut on the disk.
            disk.sync(pending);
            pending.clear();
            disk.truncateTo(offset);
        }
        observer.afterTruncate(this, offset);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return memory.endOffsetForEpoch(epoch);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return memory.latestSnapshot();
    }

    /** The in-memory writer of the port: a simulated snapshot file is its chunks in memory. */
    @Override
    public SnapshotWriter createSnapshot(OffsetAndEpoch id) {
        return memory.createSnapshot(id);
    }

    @Override
    public void installSnapshot(SnapshotWriter frozen) {
        OffsetAndEpoch id = frozen.id();
        disk.maybeFailWrite("snapshot", id.offset());
        observer.beforeSnapshotInstalled(this, id);
        memory.installSnapshot(frozen);
        // The snapshot file is synced, and the log start moves with it: make the disk agree.
        disk.sync(pending);
        pending.clear();
        disk.installSnapshot(id, memory.readSnapshot(id, 0, (int) memory.snapshotSize(id)));
    }

    @Override
    public long snapshotSize(OffsetAndEpoch id) {
        return memory.snapshotSize(id);
    }

    @Override
    public byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes) {
        return memory.readSnapshot(id, position, maxBytes);
    }

    @Override
    public void close() {
        // A clean close keeps the pending writes pending: the driver syncs before closing.
    }
}
