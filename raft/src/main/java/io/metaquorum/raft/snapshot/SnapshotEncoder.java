package io.metaquorum.raft.snapshot;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.SnapshotFooterRecord;
import io.metaquorum.protocol.SnapshotHeaderRecord;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a snapshot in the {@link SnapshotCodec} format as its records come, one batch at a
 * time: the header batch at once, then raft's own state as one control batch (the voter set,
 * KIP-853; a snapshot replaces the log below it, so it must carry the VotersRecord that log held), a data batch whenever {@code batchRecordsMax} records or
 * about {@code batchBytesMax} bytes are pending, and the last batch and the footer on
 * {@link #finish()}. Each batch goes to the {@link SnapshotWriter} as one chunk, so memory
 * is bounded by one batch however large the snapshot.
 *
 * <p>Invariant: {@code pending} holds fewer than {@code batchRecordsMax} records and (unless
 * it is one record) a record block of at most {@code batchBytesMax} bytes; {@code recordCount} counts
 * every record added, written or pending.
 */
public final class SnapshotEncoder {
    private final SnapshotWriter out;
    private final int epoch;
    private final long lastContainedLogTimeMs;
    private final int batchRecordsMax;
    private final int batchBytesMax;
    private final List<ByteString> pending = new ArrayList<>();
    private long pendingBytes;
    private long recordCount;
    private boolean finished;

    /**
     * Writes the header batch to {@code out} at once.
     *
     * @param lastContainedLogTimeMs the append time of the last log record the snapshot covers
     * @param batchRecordsMax        data records per batch
     * @param batchBytesMax          bytes of the record block per batch (a larger record gets a batch alone)
     */
    public SnapshotEncoder(SnapshotWriter out, long lastContainedLogTimeMs, int batchRecordsMax, int batchBytesMax) {
        this(out, lastContainedLogTimeMs, batchRecordsMax, batchBytesMax, List.of());
    }

    /**
     * As above, with {@code raftRecords} (serialized {@code ControlRecord}s: KRaftVersionRecord,
     * VotersRecord) written in a control batch after the header; none written when empty.
     */
    public SnapshotEncoder(SnapshotWriter out, long lastContainedLogTimeMs, int batchRecordsMax, int batchBytesMax,
                           List<ByteString> raftRecords) {
        if (batchRecordsMax <= 0 || batchBytesMax <= 0) {
            throw new IllegalArgumentException("batch limits must be positive, got " + batchRecordsMax
                    + " records and " + batchBytesMax + " bytes");
        }
        OffsetAndEpoch id = out.id();
        if (id.offset() < 0 || id.epoch() < 0) {
            throw new IllegalArgumentException("snapshot id must not be negative: " + id);
        }
        this.out = out;
        this.epoch = id.epoch();
        this.lastContainedLogTimeMs = lastContainedLogTimeMs;
        this.batchRecordsMax = batchRecordsMax;
        this.batchBytesMax = batchBytesMax;
        ControlRecord header = ControlRecord.newBuilder().setSnapshotHeader(SnapshotHeaderRecord.newBuilder()
                .setVersion(SnapshotCodec.FORMAT_VERSION).setLastContainedLogTimeMs(lastContainedLogTimeMs)).build();
        write(RecordBatches.build(0, epoch, lastContainedLogTimeMs, true, List.of(header.toByteString())));
        if (!raftRecords.isEmpty()) {
            write(RecordBatches.build(0, epoch, lastContainedLogTimeMs, true, raftRecords));
        }
    }

    /** Adds the next data record. */
    public void add(ByteString record) {
        if (finished) {
            throw new IllegalStateException("snapshot " + out.id() + " is finished");
        }
        // A record takes its bytes and its varint length in the batch's block.
        int recordBytes = CodedOutputStream.computeUInt32SizeNoTag(record.size()) + record.size();
        if (!pending.isEmpty() && pendingBytes + recordBytes > batchBytesMax) {
            writePending();
        }
        pending.add(record);
        pendingBytes += recordBytes;
        recordCount++;
        if (pending.size() >= batchRecordsMax) {
            writePending();
        }
    }

    /** The data records added so far. */
    public long recordCount() {
        return recordCount;
    }

    /** Writes what is pending and the footer batch, then freezes the writer (durable, complete). */
    public void finish() {
        if (finished) {
            throw new IllegalStateException("snapshot " + out.id() + " is finished");
        }
        writePending();
        ControlRecord footer = ControlRecord.newBuilder()
                .setSnapshotFooter(SnapshotFooterRecord.newBuilder().setVersion(SnapshotCodec.FORMAT_VERSION)).build();
        write(RecordBatches.build(recordCount, epoch, lastContainedLogTimeMs, true, List.of(footer.toByteString())));
        finished = true;
        out.freeze();
    }

    private void writePending() {
        if (pending.isEmpty()) {
            return;
        }
        write(RecordBatches.build(recordCount - pending.size(), epoch, lastContainedLogTimeMs, false, pending));
        pending.clear();
        pendingBytes = 0;
    }

    /** One batch, length-delimited, as one chunk. */
    private void write(RecordBatch batch) {
        int size = batch.getSerializedSize();
        byte[] chunk = new byte[CodedOutputStream.computeUInt32SizeNoTag(size) + size];
        CodedOutputStream coded = CodedOutputStream.newInstance(chunk);
        try {
            coded.writeUInt32NoTag(size);
            batch.writeTo(coded);
            coded.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding a batch into memory failed", e);
        }
        out.append(chunk);
    }
}
