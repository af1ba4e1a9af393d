package io.metaquorum.sim.system.invariant;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.record.MetadataRecordCodec;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import com.google.protobuf.ByteString;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The committed metadata log replayed from its start, one batch at a time, into the image at
 * the end of every batch: what every node's image at that offset must equal. Images share
 * structure (persistent maps), so keeping one per batch is cheap; {@link #forgetBelow} bounds
 * the memory of a long run.
 *
 * <p>Invariant: batches arrive contiguously from offset 0; {@code images} holds the image at
 * the last offset of each batch seen and not forgotten.
 */
public final class ReplayedLog {
    private final TreeMap<Long, MetadataImage> images = new TreeMap<>();
    private final BiConsumer<MetadataRecord, Long> recordObserver;
    private MetadataImage last = MetadataImage.EMPTY;

    /** @param recordObserver sees every metadata record with its offset, in log order (the id checks) */
    public ReplayedLog(BiConsumer<MetadataRecord, Long> recordObserver) {
        this.recordObserver = recordObserver;
    }

    /** Replays the next committed batch. */
    public void append(RecordBatch batch) {
        Invariants.check(batch.getBaseOffset() == last.committedEndOffset(), "committed batch at %d, expected %d",
                batch.getBaseOffset(), last.committedEndOffset());
        MetadataDelta delta = new MetadataDelta(last);
        long offset = batch.getBaseOffset();
        for (ByteString bytes : RecordBatches.records(batch)) {
            if (batch.getControl()) {
                delta.advanceTo(offset, batch.getEpoch());
            } else {
                MetadataRecord record = MetadataRecordCodec.decode(bytes, offset);
                recordObserver.accept(record, offset);
                delta.replay(record, offset, batch.getEpoch());
            }
            offset++;
        }
        last = delta.apply();
        images.put(last.lastCommittedOffset(), last);
    }

    /** The image at the end of the committed log replayed so far. */
    public MetadataImage last() {
        return last;
    }

    /** The replayed image whose last offset is {@code offset}, or null when no batch ends there (or it was forgotten). */
    public MetadataImage at(long offset) {
        return images.get(offset);
    }

    /** Drops the images below {@code offset}: no node will be judged at them again. */
    public void forgetBelow(long offset) {
        Map<Long, MetadataImage> below = images.headMap(offset);
        below.clear();
    }
}
