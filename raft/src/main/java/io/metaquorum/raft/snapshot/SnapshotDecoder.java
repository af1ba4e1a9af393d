package io.metaquorum.raft.snapshot;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.SnapshotFooterRecord;
import io.metaquorum.protocol.SnapshotHeaderRecord;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a snapshot in the {@link SnapshotCodec} format from a {@link SnapshotReader} one
 * batch at a time, verifying as it goes what {@link SnapshotCodec#decode} verifies: every
 * CRC32C, the header first, data base offsets counting the records, one epoch throughout,
 * the footer last and nothing after it. Raft's own records (KRaftVersionRecord and
 * VotersRecord, in a control batch before the data) are kept aside: {@link #raftRecords()}. Memory is bounded by one read chunk plus one batch.
 *
 * <p>Any deviation throws {@link CorruptLogException} whose offset is the byte position in
 * the content where the bad batch starts and whose message names the snapshot. The records
 * a caller took before the error must be dropped: a snapshot is used completely or not at all.
 *
 * <p>Invariant: {@code buffer[cursor, limit)} holds the content from byte position
 * {@code bufferPosition + cursor} on; {@code recordCount} is the data records returned.
 */
public final class SnapshotDecoder {
    /** How much is read from the source at a time. */
    public static final int READ_CHUNK_BYTES = 1 << 20;
    /** The longest batch accepted; longer is corruption (writers cut batches far below it). */
    static final int BATCH_BYTES_MAX = 64 << 20;

    private final SnapshotReader source;
    private final String name;
    private final long size;
    private byte[] buffer = new byte[0];
    private long bufferPosition;
    private int cursor;
    private int limit;
    private final SnapshotHeaderRecord header;
    private final int epoch;
    private long recordCount;
    private boolean footerRead;
    private final List<ControlRecord> raftRecords = new ArrayList<>();

    /** Reads and verifies the header batch; {@code name} says which snapshot in error messages. */
    public SnapshotDecoder(SnapshotReader source, String name) {
        this.source = source;
        this.name = name;
        this.size = source.sizeBytes();
        PositionedBatch first = readBatch();
        if (first == null) {
            throw corrupt(0, "snapshot is empty: no header batch");
        }
        this.header = requireControl(first, 0, ControlRecord.RecordCase.SNAPSHOT_HEADER).getSnapshotHeader();
        requireVersion(first, header.getVersion());
        this.epoch = first.batch().getEpoch();
    }

    /** A decoder of the snapshot {@code source} stores, named by its id in errors. */
    public static SnapshotDecoder of(SnapshotReader source) {
        return new SnapshotDecoder(source, "snapshot " + source.id());
    }

    public int epoch() {
        return epoch;
    }

    public long lastContainedLogTimeMs() {
        return header.getLastContainedLogTimeMs();
    }

    /** The data records returned by {@link #nextBatch()} so far. */
    public long recordCount() {
        return recordCount;
    }

    /**
     * The records of the next data batch (views into it, no copy), or null once the footer
     * is read and nothing follows it.
     */
    public List<ByteString> nextBatch() {
        if (footerRead) {
            return null;
        }
        PositionedBatch next = readBatch();
        if (next == null) {
            throw corrupt(size, "snapshot ends without a footer batch");
        }
        if (next.batch().getEpoch() != epoch) {
            throw next.corrupt("batch epoch " + next.batch().getEpoch() + " differs from the header's " + epoch);
        }
        if (next.batch().getControl() && recordCount == 0 && raftRecords.isEmpty() && takeRaftRecords(next)) {
            return nextBatch();
        }
        if (next.batch().getControl()) {
            SnapshotFooterRecord footer = requireControl(next, recordCount, ControlRecord.RecordCase.SNAPSHOT_FOOTER)
                    .getSnapshotFooter();
            requireVersion(next, footer.getVersion());
            if (position() != size) {
                throw corrupt(position(), "bytes follow the footer batch");
            }
            footerRead = true;
            return null;
        }
        if (next.batch().getBaseOffset() != recordCount) {
            throw next.corrupt("data batch base offset " + next.batch().getBaseOffset()
                    + " is not the record count so far " + recordCount);
        }
        List<ByteString> records;
        try {
            records = RecordBatches.records(next.batch());
        } catch (CorruptLogException e) {
            throw next.corrupt("record block does not decode: " + e.getMessage());
        }
        recordCount += records.size();
        return records;
    }

    /**
     * The KRaftVersionRecord and VotersRecord the snapshot holds, once the first
     * {@link #nextBatch()} has returned (they come before the data); empty in a snapshot
     * written without them.
     */
    public List<ControlRecord> raftRecords() {
        return List.copyOf(raftRecords);
    }

    /** Keeps the records of a control batch of raft state; false (nothing kept) for any other control batch. */
    private boolean takeRaftRecords(PositionedBatch positioned) {
        List<ControlRecord> records = new ArrayList<>();
        try {
            for (ByteString bytes : RecordBatches.records(positioned.batch())) {
                ControlRecord record = ControlRecord.parseFrom(bytes);
                if (record.getRecordCase() != ControlRecord.RecordCase.KRAFT_VERSION
                        && record.getRecordCase() != ControlRecord.RecordCase.VOTERS) {
                    return false;
                }
                records.add(record);
            }
        } catch (InvalidProtocolBufferException | CorruptLogException e) {
            throw positioned.corrupt("control record does not parse: " + e.getMessage());
        }
        raftRecords.addAll(records);
        return !records.isEmpty();
    }

    /** The byte position of the next unread byte. */
    private long position() {
        return bufferPosition + cursor;
    }

    /** The next batch with its CRC verified, or null at the end of the content. */
    private PositionedBatch readBatch() {
        long start = position();
        if (start == size) {
            return null;
        }
        int length = readLength(start);
        long left = size - position();
        if (length < 0 || length > left) {
            throw corrupt(start, "batch length " + length + " runs past the end (" + left + " bytes left)");
        }
        if (length > BATCH_BYTES_MAX) {
            throw corrupt(start, "batch length " + length + " exceeds the limit " + BATCH_BYTES_MAX);
        }
        fill(length);
        RecordBatch batch;
        try {
            batch = RecordBatch.parser().parseFrom(buffer, cursor, length);
        } catch (InvalidProtocolBufferException e) {
            throw corrupt(start, "batch does not parse: " + e.getMessage());
        }
        cursor += length;
        PositionedBatch positioned = new PositionedBatch(start, batch);
        if (!RecordBatches.isValid(batch)) {
            throw positioned.corrupt("CRC32C mismatch or empty batch");
        }
        return positioned;
    }

    /** The varint32 length prefix of the batch starting at {@code start}. */
    private int readLength(long start) {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (position() == size) {
                throw corrupt(start, "the content ends inside a batch length");
            }
            fill(1);
            byte next = buffer[cursor++];
            value |= (next & 0x7F) << shift;
            if ((next & 0x80) == 0) {
                return value;
            }
        }
        throw corrupt(start, "batch length is not a varint32");
    }

    /** Makes {@code needed} bytes available at {@code cursor}; the caller checked they exist. */
    private void fill(int needed) {
        if (limit - cursor >= needed) {
            return;
        }
        int kept = limit - cursor;
        // A chunk at most, and no more than what is left: a small snapshot gets a small buffer.
        int capacity = (int) Math.max(needed, Math.min(READ_CHUNK_BYTES, size - bufferPosition - cursor));
        byte[] next = buffer.length >= capacity ? buffer : new byte[capacity];
        System.arraycopy(buffer, cursor, next, 0, kept);
        bufferPosition += cursor;
        buffer = next;
        cursor = 0;
        limit = kept;
        while (limit < needed) {
            long from = bufferPosition + limit;
            int want = (int) Math.min(buffer.length - limit, size - from);
            byte[] chunk = source.read(from, want);
            if (chunk.length == 0) {
                throw corrupt(from, "the content ends early at byte position " + from + " of " + size);
            }
            System.arraycopy(chunk, 0, buffer, limit, chunk.length);
            limit += chunk.length;
        }
    }

    private ControlRecord requireControl(PositionedBatch positioned, long baseOffset,
                                         ControlRecord.RecordCase expected) {
        RecordBatch batch = positioned.batch();
        if (!batch.getControl() || batch.getRecordCount() != 1) {
            throw positioned.corrupt("expected a control batch with one " + expected + " record");
        }
        if (batch.getBaseOffset() != baseOffset) {
            throw positioned.corrupt(expected + " batch base offset " + batch.getBaseOffset() + " is not " + baseOffset);
        }
        ControlRecord record;
        try {
            record = ControlRecord.parseFrom(RecordBatches.records(batch).get(0));
        } catch (InvalidProtocolBufferException | CorruptLogException e) {
            throw positioned.corrupt("control record does not parse: " + e.getMessage());
        }
        if (record.getRecordCase() != expected) {
            throw positioned.corrupt("expected a " + expected + " control record, found " + record.getRecordCase());
        }
        return record;
    }

    private void requireVersion(PositionedBatch positioned, int version) {
        if (version != SnapshotCodec.FORMAT_VERSION) {
            throw positioned.corrupt("unsupported snapshot format version " + version);
        }
    }

    /** The exception's offset is a byte position in the content; the message names the snapshot. */
    private CorruptLogException corrupt(long position, String detail) {
        return new CorruptLogException(position, name + ", byte position " + position + ": " + detail);
    }

    /** A batch and the byte position in the content where its length prefix starts. */
    private final class PositionedBatch {
        private final long position;
        private final RecordBatch batch;

        PositionedBatch(long position, RecordBatch batch) {
            this.position = position;
            this.batch = batch;
        }

        RecordBatch batch() {
            return batch;
        }

        CorruptLogException corrupt(String detail) {
            return SnapshotDecoder.this.corrupt(position, detail);
        }
    }
}
