package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.log.rocksdb.StoredLogReader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * {@code mq-metadata dump}: the records of a stored metadata log or of a snapshot file, one a
 * line, in offset order. Text: a line per batch ({@code baseOffset: 10 lastOffset: 12 count: 3
 * epoch: 3 control: false appendTime: … bytes: 210 crc32c: 0x…}) before its records
 * ({@code | offset: 10 epoch: 3 type: TopicRecord record: {…}}); JSON: one object per record
 * exactly as PRODUCT.md writes it, without batch lines. A batch header prints only when one
 * of its records passes the filter.
 *
 * <p>A corrupt batch stops the dump: what came before it has been printed, and the
 * {@code CorruptLogException} naming its offset reaches the caller.
 */
public final class MetadataLogDump {
    /** What to print. */
    public record Options(long fromOffset, long maxRecords, RecordFilter filter, boolean json) {
    }

    private final Options options;
    private final PrintWriter out;
    private long printed;

    private MetadataLogDump(Options options, PrintWriter out) {
        this.options = options;
        this.out = out;
    }

    /** Dumps the stored log from {@code options.fromOffset()}; returns the records printed. */
    public static long dumpLog(StoredLogReader reader, Path metadataLogDir, Options options, PrintWriter out) {
        MetadataLogDump dump = new MetadataLogDump(options, out);
        long walkFrom = options.fromOffset();
        if (options.filter().filtersTopic()) {
            // The topic's TopicRecord may come before the first offset printed, or be in the snapshot.
            OffsetAndEpoch start = reader.recordedLogStart();
            if (start != null) {
                DecodedSnapshot snapshot = SnapshotFileReader.read(metadataLogDir, start);
                long offset = 0;
                for (ByteString bytes : snapshot.records()) {
                    options.filter().accept(DecodedRecord.decode(offset++, snapshot.epoch(), false, bytes));
                }
            }
            walkFrom = 0;
        }
        StoredBatches.walk(reader, walkFrom, dump::onBatch);
        return dump.printed;
    }

    /**
     * Dumps snapshot {@code id}: a header line, then its records numbered from 0 as the
     * snapshot's own batches number them.
     */
    public static long dumpSnapshot(Path metadataLogDir, OffsetAndEpoch id, Options options, PrintWriter out) {
        DecodedSnapshot snapshot = SnapshotFileReader.readExisting(metadataLogDir, id);
        if (!options.json()) {
            out.println("snapshot: " + SnapshotFileReader.file(metadataLogDir, id).getFileName() + " endOffset: "
                    + id.offset() + " epoch: " + id.epoch() + " records: " + snapshot.records().size()
                    + " lastContainedLogTime: " + time(snapshot.lastContainedLogTimeMs()));
        }
        MetadataLogDump dump = new MetadataLogDump(options, out);
        List<ByteString> records = snapshot.records();
        for (int i = 0; i < records.size() && dump.printed < options.maxRecords(); i++) {
            DecodedRecord record = DecodedRecord.decode(i, snapshot.epoch(), false, records.get(i));
            if (options.filter().accept(record) && i >= options.fromOffset()) {
                dump.print(record);
            }
        }
        return dump.printed;
    }

    private boolean onBatch(RecordBatch batch, int storedBytes) {
        long offset = batch.getBaseOffset();
        boolean headerPrinted = false;
        for (ByteString bytes : RecordBatches.records(batch)) {
            if (printed >= options.maxRecords()) {
                return false;
            }
            DecodedRecord record = DecodedRecord.decode(offset, batch.getEpoch(), batch.getControl(), bytes);
            if (options.filter().accept(record) && offset >= options.fromOffset()) {
                if (!headerPrinted && !options.json()) {
                    out.println(batchLine(batch, storedBytes));
                    headerPrinted = true;
                }
                print(record);
            }
            offset++;
        }
        return printed < options.maxRecords();
    }

    private void print(DecodedRecord record) {
        out.println(options.json() ? record.jsonLine() : record.textLine());
        printed++;
    }

    static String batchLine(RecordBatch batch, int storedBytes) {
        return "baseOffset: " + batch.getBaseOffset() + " lastOffset: " + (RecordBatches.endOffset(batch) - 1)
                + " count: " + batch.getRecordCount() + " epoch: " + batch.getEpoch() + " control: "
                + batch.getControl() + " appendTime: " + time(batch.getAppendTimeMs()) + " bytes: " + storedBytes
                + " crc32c: " + String.format("0x%08x", batch.getCrc());
    }

    static String time(long epochMs) {
        return epochMs < 0 ? "none" : Instant.ofEpochMilli(epochMs).toString();
    }
}
