package io.metaquorum.raft.snapshot;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.SnapshotFooterRecord;
import io.metaquorum.protocol.SnapshotHeaderRecord;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The content format of a snapshot (KIP-630): a sequence of length-delimited
 * {@link RecordBatch} messages, all carrying the snapshot's epoch and the last contained
 * log time as append time:
 *
 * <ol>
 *   <li>a control batch at base offset 0 holding one {@link ControlRecord} with a
 *       {@link SnapshotHeaderRecord};</li>
 *   <li>data batches whose base offsets count the data records inside the snapshot
 *       (0, then the running total), at most {@code batchRecordsMax} records each;</li>
 *   <li>a control batch at base offset = the data record count holding one
 *       {@link ControlRecord} with a {@link SnapshotFooterRecord}; nothing follows it.</li>
 * </ol>
 *
 * <p>Control batches take no offsets, so data offsets count data records only. Decoding
 * verifies every batch's CRC32C and the whole structure; any deviation is a
 * {@link CorruptLogException} whose offset is the byte position in the content where the
 * bad batch starts. A snapshot is read completely or not at all.
 */
public final class SnapshotCodec {
    /** The header and footer version written and the only one accepted. */
    public static final int FORMAT_VERSION = 1;

    private SnapshotCodec() {
    }

    /** The content of a snapshot named {@code id} holding {@code records}. */
    public static byte[] encode(OffsetAndEpoch id, long lastContainedLogTimeMs, List<ByteString> records,
                                int batchRecordsMax) {
        if (batchRecordsMax <= 0) {
            throw new IllegalArgumentException("batchRecordsMax must be positive, got " + batchRecordsMax);
        }
        if (id.offset() < 0 || id.epoch() < 0) {
            throw new IllegalArgumentException("snapshot id must not be negative: " + id);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ControlRecord header = ControlRecord.newBuilder().setSnapshotHeader(SnapshotHeaderRecord.newBuilder()
                .setVersion(FORMAT_VERSION).setLastContainedLogTimeMs(lastContainedLogTimeMs)).build();
        write(out, RecordBatches.build(0, id.epoch(), lastContainedLogTimeMs, true, List.of(header.toByteString())));
        for (int from = 0; from < records.size(); from += batchRecordsMax) {
            List<ByteString> slice = records.subList(from, Math.min(records.size(), from + batchRecordsMax));
            write(out, RecordBatches.build(from, id.epoch(), lastContainedLogTimeMs, false, slice));
        }
        ControlRecord footer = ControlRecord.newBuilder()
                .setSnapshotFooter(SnapshotFooterRecord.newBuilder().setVersion(FORMAT_VERSION)).build();
        write(out, RecordBatches.build(records.size(), id.epoch(), lastContainedLogTimeMs, true,
                List.of(footer.toByteString())));
        return out.toByteArray();
    }

    /** The verified content of a snapshot; throws {@link CorruptLogException} on any problem. */
    public static DecodedSnapshot decode(byte[] content) {
        CodedInputStream in = CodedInputStream.newInstance(content);
        PositionedBatch first = readBatch(in, content);
        if (first == null) {
            throw corrupt(0, "snapshot is empty: no header batch");
        }
        SnapshotHeaderRecord header = requireControl(first, 0, ControlRecord.RecordCase.SNAPSHOT_HEADER)
                .getSnapshotHeader();
        requireVersion(first, header.getVersion());
        int epoch = first.batch().getEpoch();
        List<ByteString> records = new ArrayList<>();
        while (true) {
            PositionedBatch next = readBatch(in, content);
            if (next == null) {
                throw corrupt(content.length, "snapshot ends without a footer batch");
            }
            if (next.batch().getEpoch() != epoch) {
                throw next.corrupt("batch epoch " + next.batch().getEpoch() + " differs from the header's " + epoch);
            }
            if (next.batch().getControl()) {
                SnapshotFooterRecord footer = requireControl(next, records.size(),
                        ControlRecord.RecordCase.SNAPSHOT_FOOTER).getSnapshotFooter();
                requireVersion(next, footer.getVersion());
                if (in.getTotalBytesRead() != content.length) {
                    throw corrupt(in.getTotalBytesRead(), "bytes follow the footer batch");
                }
                return new DecodedSnapshot(epoch, header.getLastContainedLogTimeMs(), records);
            }
            if (next.batch().getBaseOffset() != records.size()) {
                throw next.corrupt("data batch base offset " + next.batch().getBaseOffset()
                        + " is not the record count so far " + records.size());
            }
            records.addAll(RecordBatches.records(next.batch()));
        }
    }

    private static void write(ByteArrayOutputStream out, RecordBatch batch) {
        try {
            batch.writeDelimitedTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory failed", e);
        }
    }

    /** The next batch with its CRC verified, or null at the end of the content. */
    private static PositionedBatch readBatch(CodedInputStream in, byte[] content) {
        int position = in.getTotalBytesRead();
        try {
            if (position == content.length) {
                return null;
            }
            int length = in.readRawVarint32();
            int start = in.getTotalBytesRead();
            if (length < 0 || length > content.length - start) {
                throw corrupt(position, "batch length " + length + " runs past the end ("
                        + (content.length - start) + " bytes left)");
            }
            RecordBatch batch = RecordBatch.parser().parseFrom(content, start, length);
            in.skipRawBytes(length);
            PositionedBatch positioned = new PositionedBatch(position, batch);
            if (!RecordBatches.isValid(batch)) {
                throw positioned.corrupt("CRC32C mismatch or empty batch");
            }
            return positioned;
        } catch (InvalidProtocolBufferException e) {
            throw corrupt(position, "batch does not parse: " + e.getMessage());
        } catch (IOException e) {
            throw corrupt(position, "batch cannot be read: " + e.getMessage());
        }
    }

    private static ControlRecord requireControl(PositionedBatch positioned, long baseOffset,
                                                ControlRecord.RecordCase expected) {
        RecordBatch batch = positioned.batch();
        if (!batch.getControl() || batch.getRecordCount() != 1) {
            throw positioned.corrupt("expected a control batch with one " + expected + " record");
        }
        if (batch.getBaseOffset() != baseOffset) {
            throw positioned.corrupt(expected + " batch base offset " + batch.getBaseOffset()
                    + " is not " + baseOffset);
        }
        ControlRecord record;
        try {
            record = ControlRecord.parseFrom(RecordBatches.records(batch).get(0));
        } catch (InvalidProtocolBufferException e) {
            throw positioned.corrupt("control record does not parse: " + e.getMessage());
        }
        if (record.getRecordCase() != expected) {
            throw positioned.corrupt("expected a " + expected + " control record, found " + record.getRecordCase());
        }
        return record;
    }

    private static void requireVersion(PositionedBatch positioned, int version) {
        if (version != FORMAT_VERSION) {
            throw positioned.corrupt("unsupported snapshot format version " + version);
        }
    }

    /** A batch and the byte position in the content where its length prefix starts. */
    private record PositionedBatch(int position, RecordBatch batch) {
        CorruptLogException corrupt(String detail) {
            return SnapshotCodec.corrupt(position, detail);
        }
    }

    /** The exception's offset is a byte position here; the detail says so. */
    private static CorruptLogException corrupt(long position, String detail) {
        return new CorruptLogException(position, "snapshot content, byte position " + position + ": " + detail);
    }
}
