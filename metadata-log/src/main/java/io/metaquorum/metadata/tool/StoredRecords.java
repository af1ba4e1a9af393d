package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.log.rocksdb.StoredLogReader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.RecordBatches;
import java.util.List;

/**
 * A pull cursor over the records of a stored log from an offset, one at a time (for
 * {@code mq-metadata diff}, which walks two logs side by side). Batches are verified as
 * {@link StoredBatches#parse} does; a gap or a corrupt batch is a {@link CorruptLogException}.
 */
final class StoredRecords implements AutoCloseable {
    private final StoredLogReader.Cursor cursor;
    private RecordBatch batch;
    private List<ByteString> records;
    private int index;
    private long offset;
    private boolean exhausted;

    StoredRecords(StoredLogReader reader, long fromOffset) {
        this.cursor = reader.batchesFrom(fromOffset);
        while (advanceBatch()) {
            if (RecordBatches.endOffset(batch) > fromOffset) {
                index = (int) Math.max(0, fromOffset - batch.getBaseOffset());
                offset = batch.getBaseOffset() + index;
                return;
            }
        }
    }

    /** The next record's offset, epoch, control flag and bytes; null at the end of the log. */
    Entry next() {
        if (exhausted || batch == null) {
            return null;
        }
        if (index == records.size()) {
            long expected = RecordBatches.endOffset(batch);
            if (!advanceBatch()) {
                return null;
            }
            if (batch.getBaseOffset() != expected) {
                throw new CorruptLogException(expected, "offsets [" + expected + ", " + batch.getBaseOffset()
                        + ") are missing from the log");
            }
            index = 0;
        }
        Entry entry = new Entry(offset, batch.getEpoch(), batch.getControl(), records.get(index));
        index++;
        offset++;
        return entry;
    }

    private boolean advanceBatch() {
        if (!cursor.next()) {
            exhausted = true;
            return false;
        }
        batch = StoredBatches.parse(cursor.keyOffset(), cursor.value());
        records = RecordBatches.records(batch);
        return true;
    }

    @Override
    public void close() {
        cursor.close();
    }

    /** One stored record, undecoded. */
    record Entry(long offset, int epoch, boolean control, ByteString bytes) {
        boolean sameAs(Entry other) {
            return epoch == other.epoch && control == other.control && bytes.equals(other.bytes);
        }

        String describe() {
            try {
                return DecodedRecord.decode(offset, epoch, control, bytes).textLine();
            } catch (CorruptLogException e) {
                return "| offset: " + offset + " epoch: " + epoch + " undecodable (" + bytes.size() + " bytes): "
                        + e.getMessage();
            }
        }
    }
}
