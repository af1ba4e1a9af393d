package io.metaquorum.raft.snapshot;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.protocol.SnapshotFooterRecord;
import io.metaquorum.protocol.SnapshotHeaderRecord;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.InMemorySnapshotWriter;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.ArrayList;
import java.util.Arrays;
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

    /**
     * The content of a snapshot named {@code id} holding {@code records}, in one array: for
     * tools and tests. A node streams its snapshots through {@link SnapshotEncoder}.
     */
    public static byte[] encode(OffsetAndEpoch id, long lastContainedLogTimeMs, List<ByteString> records,
                                int batchRecordsMax) {
        if (batchRecordsMax <= 0) {
            throw new IllegalArgumentException("batchRecordsMax must be positive, got " + batchRecordsMax);
        }
        InMemorySnapshotWriter writer = new InMemorySnapshotWriter(id);
        SnapshotEncoder encoder = new SnapshotEncoder(writer, lastContainedLogTimeMs, batchRecordsMax,
                Integer.MAX_VALUE);
        records.forEach(encoder::add);
        encoder.finish();
        return writer.frozenContent();
    }

    /**
     * The verified content of a snapshot held in one array (tools and tests; a node reads
     * its snapshots through {@link SnapshotDecoder}); throws {@link CorruptLogException} on
     * any problem.
     */
    public static DecodedSnapshot decode(byte[] content) {
        SnapshotDecoder decoder = new SnapshotDecoder(contentReader(content), "snapshot content");
        List<ByteString> records = new ArrayList<>();
        for (List<ByteString> batch = decoder.nextBatch(); batch != null; batch = decoder.nextBatch()) {
            records.addAll(batch);
        }
        return new DecodedSnapshot(decoder.epoch(), decoder.lastContainedLogTimeMs(), records);
    }

    /** {@code content} as a {@link SnapshotReader} (its id is not known here). */
    static SnapshotReader contentReader(byte[] content) {
        return new SnapshotReader() {
            @Override
            public OffsetAndEpoch id() {
                return OffsetAndEpoch.ZERO;
            }

            @Override
            public long sizeBytes() {
                return content.length;
            }

            @Override
            public byte[] read(long position, int maxBytes) {
                int from = (int) position;
                return Arrays.copyOfRange(content, from, from + Math.min(maxBytes, content.length - from));
            }
        };
    }
}
