package io.metaquorum.raft.storage;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import io.metaquorum.protocol.RecordBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Building, reading and checking record batches. The records of a batch are one
 * contiguous block (each a varint length, then its bytes); the CRC32C covers the base
 * offset, epoch, append time, control flag, record count and that block, so a batch is
 * self-validating wherever it travels or rests.
 */
public final class RecordBatches {
    private static final int HEADER_BYTES = Long.BYTES * 2 + Integer.BYTES * 2 + 1;

    private RecordBatches() {
    }

    public static RecordBatch build(long baseOffset, int epoch, long appendTimeMs, boolean control,
                                    List<ByteString> records) {
        ByteString block = encode(records);
        int crc = crc(baseOffset, epoch, appendTimeMs, control, records.size(), block);
        return RecordBatch.newBuilder()
                .setBaseOffset(baseOffset)
                .setEpoch(epoch)
                .setAppendTimeMs(appendTimeMs)
                .setControl(control)
                .setRecordCount(records.size())
                .setRecords(block)
                .setCrc(crc)
                .build();
    }

    public static boolean isValid(RecordBatch batch) {
        return batch.getRecordCount() > 0 && batch.getCrc() == crc(batch.getBaseOffset(), batch.getEpoch(),
                batch.getAppendTimeMs(), batch.getControl(), batch.getRecordCount(), batch.getRecords());
    }

    /** Throws {@link CorruptLogException} naming the offset if the batch fails its check. */
    public static RecordBatch requireValid(RecordBatch batch) {
        if (!isValid(batch)) {
            throw new CorruptLogException(batch.getBaseOffset(), "CRC32C mismatch or empty batch");
        }
        return batch;
    }

    public static long endOffset(RecordBatch batch) {
        return batch.getBaseOffset() + batch.getRecordCount();
    }

    /**
     * The records of a batch, as views into its block (no copy). A block that does not hold
     * exactly {@code record_count} records throws {@link CorruptLogException}.
     */
    public static List<ByteString> records(RecordBatch batch) {
        ByteString block = batch.getRecords();
        int count = batch.getRecordCount();
        List<ByteString> records = new ArrayList<>(count);
        int position = 0;
        for (int i = 0; i < count; i++) {
            int length = 0;
            int shift = 0;
            byte next;
            do {
                if (position >= block.size() || shift > 28) {
                    throw new CorruptLogException(batch.getBaseOffset(), "record block ends inside record " + i);
                }
                next = block.byteAt(position++);
                length |= (next & 0x7F) << shift;
                shift += 7;
            } while ((next & 0x80) != 0);
            if (length < 0 || position + length > block.size()) {
                throw new CorruptLogException(batch.getBaseOffset(), "record " + i + " runs past its block");
            }
            records.add(block.substring(position, position + length));
            position += length;
        }
        if (position != block.size()) {
            throw new CorruptLogException(batch.getBaseOffset(), "record block holds more than " + count + " records");
        }
        return records;
    }

    /**
     * The index of the batch holding {@code offset} in contiguous, offset-ordered
     * {@code batches} (binary search), or -1 when none holds it.
     */
    public static int indexOfBatchHolding(List<RecordBatch> batches, long offset) {
        int low = 0;
        int high = batches.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            RecordBatch batch = batches.get(middle);
            if (offset < batch.getBaseOffset()) {
                high = middle - 1;
            } else if (offset >= endOffset(batch)) {
                low = middle + 1;
            } else {
                return middle;
            }
        }
        return -1;
    }

    /**
     * The index of the batch starting exactly at {@code offset} in contiguous
     * {@code batches} ending at {@code endOffset} (the batch count for the end itself), else -1.
     */
    public static int indexOfBatchStartingAt(List<RecordBatch> batches, long offset, long endOffset) {
        if (offset == endOffset) {
            return batches.size();
        }
        int index = indexOfBatchHolding(batches, offset);
        return index >= 0 && batches.get(index).getBaseOffset() == offset ? index : -1;
    }

    /**
     * Cuts {@code batches} (contiguous, in offset order) so that nothing at or above
     * {@code offset} is left: later batches go, a batch straddling it is cut.
     */
    public static void truncateTo(List<RecordBatch> batches, long offset) {
        int index = indexOfBatchHolding(batches, offset);
        if (index < 0) {
            return;
        }
        RecordBatch holding = batches.get(index);
        batches.subList(index, batches.size()).clear();
        if (holding.getBaseOffset() < offset) {
            batches.add(truncate(holding, offset));
        }
    }

    /** The same batch without the records at or above {@code offset}; its CRC recomputed. */
    public static RecordBatch truncate(RecordBatch batch, long offset) {
        int keep = (int) (offset - batch.getBaseOffset());
        return build(batch.getBaseOffset(), batch.getEpoch(), batch.getAppendTimeMs(), batch.getControl(),
                records(batch).subList(0, keep));
    }

    /** The same batch without the records below {@code offset}, so starting there; its CRC recomputed. */
    public static RecordBatch dropBefore(RecordBatch batch, long offset) {
        List<ByteString> records = records(batch);
        return build(offset, batch.getEpoch(), batch.getAppendTimeMs(), batch.getControl(),
                records.subList((int) (offset - batch.getBaseOffset()), records.size()));
    }

    public static int sizeInBytes(RecordBatch batch) {
        return batch.getSerializedSize();
    }

    private static ByteString encode(List<ByteString> records) {
        int size = 0;
        for (ByteString record : records) {
            size += CodedOutputStream.computeUInt32SizeNoTag(record.size()) + record.size();
        }
        byte[] block = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(block);
        try {
            for (ByteString record : records) {
                out.writeUInt32NoTag(record.size());
                out.writeRawBytes(record);
            }
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException("sizing a record block went wrong", e);
        }
        return UnsafeByteOperations.unsafeWrap(block);
    }

    private static int crc(long baseOffset, int epoch, long appendTimeMs, boolean control, int recordCount,
                           ByteString block) {
        byte[] header = new byte[HEADER_BYTES];
        ByteBuffer.wrap(header).order(ByteOrder.BIG_ENDIAN).putLong(baseOffset).putInt(epoch).putLong(appendTimeMs)
                .put((byte) (control ? 1 : 0)).putInt(recordCount);
        Crc32cOutput crc = new Crc32cOutput();
        crc.write(header, 0, header.length);
        try {
            // Hands over the block's own arrays: checksumming through a read-only ByteBuffer
            // would copy every byte into a scratch array first.
            UnsafeByteOperations.unsafeWriteTo(block, crc);
        } catch (IOException e) {
            throw new UncheckedIOException("a checksum cannot fail to write", e);
        }
        return crc.value();
    }
}
