package io.metaquorum.sim.storage;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.LogIndex;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one node's disk holds of its log after a sync: the latest snapshot and the batches
 * after it, exactly as written. Unlike the process's view it may hold a torn last batch
 * (left by a crash mid-write), which recovery must catch by its CRC.
 *
 * <p>Invariants: batches are in offset order and contiguous from the snapshot's offset (or
 * 0), except that the last one may fail its CRC.
 */
final class DurableLog {
    private final List<RecordBatch> batches = new ArrayList<>();
    private OffsetAndEpoch snapshotId;
    private byte[] snapshotContent;

    List<RecordBatch> batches() {
        return Collections.unmodifiableList(batches);
    }

    OffsetAndEpoch snapshotId() {
        return snapshotId;
    }

    byte[] snapshotContent() {
        return snapshotContent;
    }

    long startOffset() {
        return snapshotId == null ? 0 : snapshotId.offset();
    }

    long endOffset() {
        return batches.isEmpty() ? startOffset() : RecordBatches.endOffset(batches.get(batches.size() - 1));
    }

    void append(RecordBatch batch) {
        batches.add(batch);
    }

    void truncateTo(long offset) {
        RecordBatches.truncateTo(batches, offset);
    }

    /**
     * The port's rule, from the log index every log uses: keep the batches after a matching
     * snapshot, else drop them all. A torn batch is never here now: only a crash leaves one,
     * and the next open drops it before anything is installed.
     */
    void installSnapshot(OffsetAndEpoch id, byte[] content) {
        int keptFrom = RecordBatches.indexOfBatchStartingAt(batches, id.offset(), endOffset());
        boolean matches = LogIndex.of(snapshotId, batches).planStartMove(id, keptFrom >= 0).keepsBatches();
        batches.subList(0, matches ? keptFrom : batches.size()).clear();
        snapshotId = id;
        snapshotContent = content.clone();
    }

    /** Removes a last batch that fails its CRC; true if there was one. */
    boolean dropTornTail() {
        if (!batches.isEmpty() && !RecordBatches.isValid(batches.get(batches.size() - 1))) {
            batches.remove(batches.size() - 1);
            return true;
        }
        return false;
    }

    /**
     * Whether the record at {@code offset} is stored with {@code epoch}: in a valid batch,
     * or inside the snapshot (which only ever holds committed records).
     */
    boolean stores(long offset, int epoch) {
        if (offset < startOffset()) {
            return true;
        }
        int index = RecordBatches.indexOfBatchHolding(batches, offset);
        return index >= 0 && batches.get(index).getEpoch() == epoch && RecordBatches.isValid(batches.get(index));
    }

    /** A copy holding the same batches and snapshot (batches are immutable). */
    DurableLog copy() {
        DurableLog copy = new DurableLog();
        copy.batches.addAll(batches);
        copy.snapshotId = snapshotId;
        copy.snapshotContent = snapshotContent;
        return copy;
    }

    void clear() {
        batches.clear();
        snapshotId = null;
        snapshotContent = null;
    }
}
