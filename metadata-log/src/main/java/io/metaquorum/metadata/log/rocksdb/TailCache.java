package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The most recently appended batches, kept in memory so that a leader serves followers'
 * fetches from the tail (the common case) without a RocksDB read or a parse. Bounded by
 * {@code bytesMax} of serialized batches; the oldest are evicted first.
 *
 * <p>Invariant: the cached batches are a contiguous suffix of the log (they run up to
 * its end offset), so a batch at or above {@link #firstBaseOffset()} is always here.
 * They are the very objects whose CRC was checked on append, never read back from disk.
 */
final class TailCache {
    private final long bytesMax;
    private final TreeMap<Long, RecordBatch> batches = new TreeMap<>();
    /** Invariant: the sum of the serialized sizes of {@link #batches}. */
    private long bytes;

    TailCache(long bytesMax) {
        if (bytesMax < 0) {
            throw new IllegalArgumentException("tail cache bytesMax must not be negative, got " + bytesMax);
        }
        this.bytesMax = bytesMax;
    }

    /** True when the batch starting at {@code baseOffset} is cached. */
    boolean holds(long baseOffset) {
        return !batches.isEmpty() && baseOffset >= batches.firstKey();
    }

    long firstBaseOffset() {
        return batches.firstKey();
    }

    RecordBatch get(long baseOffset) {
        return batches.get(baseOffset);
    }

    void add(RecordBatch batch) {
        batches.put(batch.getBaseOffset(), batch);
        bytes += RecordBatches.sizeInBytes(batch);
        while (bytes > bytesMax && !batches.isEmpty()) {
            bytes -= RecordBatches.sizeInBytes(batches.pollFirstEntry().getValue());
        }
    }

    /** Whole batches from the one at {@code baseOffset}, up to {@code maxBytes} (at least one). */
    List<RecordBatch> read(long baseOffset, int maxBytes) {
        List<RecordBatch> result = new ArrayList<>();
        long total = 0;
        for (RecordBatch batch : batches.tailMap(baseOffset, true).values()) {
            int size = RecordBatches.sizeInBytes(batch);
            if (!result.isEmpty() && total + size > maxBytes) {
                break;
            }
            result.add(batch);
            total += size;
        }
        return result;
    }

    /** Mirrors a log truncation: drops records at or above {@code offset}, cutting a straddling batch. */
    void truncateTo(long offset) {
        Map<Long, RecordBatch> dropped = batches.tailMap(offset, true);
        dropped.values().forEach(batch -> bytes -= RecordBatches.sizeInBytes(batch));
        dropped.clear();
        Map.Entry<Long, RecordBatch> last = batches.lastEntry();
        if (last != null && RecordBatches.endOffset(last.getValue()) > offset) {
            RecordBatch cut = RecordBatches.truncate(last.getValue(), offset);
            bytes += RecordBatches.sizeInBytes(cut) - RecordBatches.sizeInBytes(last.getValue());
            batches.put(cut.getBaseOffset(), cut);
        }
    }

    /** Mirrors a log start move: drops the batches starting below {@code offset}. */
    void dropBefore(long offset) {
        Map<Long, RecordBatch> dropped = batches.headMap(offset, false);
        dropped.values().forEach(batch -> bytes -= RecordBatches.sizeInBytes(batch));
        dropped.clear();
    }

    void clear() {
        batches.clear();
        bytes = 0;
    }
}
