package io.metaquorum.raft.storage;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Building and checking record batches. The CRC32C covers the base offset, epoch, append
 * time, control flag and every record (length-prefixed), so a batch is self-validating
 * wherever it travels or rests.
 */
public final class RecordBatches {
    private RecordBatches() {
    }

    public static RecordBatch build(long baseOffset, int epoch, long appendTimeMs, boolean control,
                                    List<ByteString> records) {
        int crc = crc(baseOffset, epoch, appendTimeMs, control, records);
        return RecordBatch.newBuilder()
                .setBaseOffset(baseOffset)
                .setEpoch(epoch)
                .setAppendTimeMs(appendTimeMs)
                .setControl(control)
                .addAllRecords(records)
                .setCrc(crc)
                .build();
    }

    public static boolean isValid(RecordBatch batch) {
        return batch.getRecordsCount() > 0 && batch.getCrc() == crc(batch.getBaseOffset(), batch.getEpoch(),
                batch.getAppendTimeMs(), batch.getControl(), batch.getRecordsList());
    }

    /** Throws {@link CorruptLogException} naming the offset if the batch fails its check. */
    public static RecordBatch requireValid(RecordBatch batch) {
        if (!isValid(batch)) {
            throw new CorruptLogException(batch.getBaseOffset(), "CRC32C mismatch or empty batch");
        }
        return batch;
    }

    public static long endOffset(RecordBatch batch) {
        return batch.getBaseOffset() + batch.getRecordsCount();
    }

    /** The same batch without the records at or above {@code offset}; its CRC recomputed. */
    public static RecordBatch truncate(RecordBatch batch, long offset) {
        int keep = (int) (offset - batch.getBaseOffset());
        return build(batch.getBaseOffset(), batch.getEpoch(), batch.getAppendTimeMs(), batch.getControl(),
                batch.getRecordsList().subList(0, keep));
    }

    public static int sizeInBytes(RecordBatch batch) {
        return batch.getSerializedSize();
    }

    private static int crc(long baseOffset, int epoch, long appendTimeMs, boolean control, List<ByteString> records) {
        CRC32C crc = new CRC32C();
        byte[] header = ByteBuffer.allocate(Long.BYTES * 2 + Integer.BYTES * 2 + 1).order(ByteOrder.BIG_ENDIAN)
                .putLong(baseOffset).putInt(epoch).putLong(appendTimeMs).put((byte) (control ? 1 : 0))
                .putInt(records.size()).array();
        crc.update(header);
        byte[] length = new byte[Integer.BYTES];
        for (ByteString record : records) {
            int size = record.size();
            length[0] = (byte) (size >>> 24);
            length[1] = (byte) (size >>> 16);
            length[2] = (byte) (size >>> 8);
            length[3] = (byte) size;
            crc.update(length, 0, Integer.BYTES);
            // One read-only view over the record's bytes: no copy, one small object per record.
            crc.update(record.asReadOnlyByteBuffer());
        }
        return (int) crc.getValue();
    }
}
