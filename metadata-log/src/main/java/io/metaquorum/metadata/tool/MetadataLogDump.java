package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.log.rocksdb.StoredLogReader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.snapshot.DecodedSnapshot;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * {@code mq-metadata dump}: the records of a stored metadata log or of a snapshot file, one a
 * line, in offset order. Text: a line per batch ({@code baseOffset: 10 lastOffset: 12 count: 3
 * epoch: 3 control: false appendTime: … bytes: 210 crc32c: 0x…}) before its records
 * ({@code | offset: 10 epoch: 3 type: TopicRecord record: {…}}); JSON: one object per record
 * exactly as docs/commands.md writes it, without batch lines. A batch header prints only when one
 * of its records passes the filter.
 *
 * <p>Partition records, nearly all of a large log, are read and printed by
 * {@link PartitionRecordWire} without being decoded into messages (unless a topic filter
 * needs the decoded record); every other record is decoded and printed by {@code RecordText}.
 * Both write into a {@link DumpOutput}: the same text, byte for byte.
 *
 * <p>A corrupt batch stops the dump: what came before it has been printed, and the
 * {@code CorruptLogException} naming its offset reaches the caller.
 */
public final class MetadataLogDump {
    private static final String PARTITION_RECORD = "PartitionRecord";

    /** What to print. */
    public record Options(long fromOffset, long maxRecords, RecordFilter filter, boolean json) {
    }

    private final Options options;
    private final DumpOutput out;
    private final PartitionRecordWire partition = new PartitionRecordWire();
    private final RecordBlock block = new RecordBlock();
    /** Whether partition records may skip decoding: only a topic filter needs their topic ids. */
    private final boolean partitionsOffTheWire;
    private final boolean partitionsPass;
    private long printed;

    private MetadataLogDump(Options options, DumpOutput out) {
        this.options = options;
        this.out = out;
        this.partitionsOffTheWire = !options.filter().filtersTopic();
        this.partitionsPass = options.filter().acceptsType(PARTITION_RECORD);
    }

    /** Dumps the stored log from {@code options.fromOffset()}; returns the records printed. */
    public static long dumpLog(StoredLogReader reader, Path metadataLogDir, Options options, DumpOutput out) {
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
    public static long dumpSnapshot(Path metadataLogDir, OffsetAndEpoch id, Options options, DumpOutput out) {
        DecodedSnapshot snapshot = SnapshotFileReader.readExisting(metadataLogDir, id);
        if (!options.json()) {
            out.text("snapshot: " + SnapshotFileReader.file(metadataLogDir, id).getFileName() + " endOffset: "
                    + id.offset() + " epoch: " + id.epoch() + " records: " + snapshot.records().size()
                    + " lastContainedLogTime: " + time(snapshot.lastContainedLogTimeMs())).newline();
        }
        MetadataLogDump dump = new MetadataLogDump(options, out);
        List<ByteString> records = snapshot.records();
        for (int i = 0; i < records.size() && dump.printed < options.maxRecords(); i++) {
            dump.offer(i, snapshot.epoch(), false, records.get(i), null, 0);
        }
        return dump.printed;
    }

    private boolean onBatch(RecordBatch batch, int storedBytes) {
        if (!block.split(batch.getRecords(), batch.getRecordCount())) {
            return onRecords(batch, storedBytes, RecordBatches.records(batch));
        }
        long offset = batch.getBaseOffset();
        RecordBatch header = batch;
        for (int i = 0; i < block.count(); i++, offset++) {
            if (printed >= options.maxRecords()) {
                return false;
            }
            boolean offered;
            if (!batch.getControl() && partitionsOffTheWire && partition.read(block.array(), block.start(i),
                    block.end(i))) {
                offered = offerPartition(offset, batch.getEpoch(), header, storedBytes);
            } else {
                offered = offerDecoded(offset, batch.getEpoch(), batch.getControl(), block.record(i), header,
                        storedBytes);
            }
            if (offered) {
                header = null;
            }
        }
        return printed < options.maxRecords();
    }

    /** The batch's records one ByteString each (the block did not split here; RecordBatches names what is wrong). */
    private boolean onRecords(RecordBatch batch, int storedBytes, List<ByteString> records) {
        long offset = batch.getBaseOffset();
        RecordBatch header = batch;
        for (ByteString bytes : records) {
            if (printed >= options.maxRecords()) {
                return false;
            }
            if (offer(offset, batch.getEpoch(), batch.getControl(), bytes, header, storedBytes)) {
                header = null;
            }
            offset++;
        }
        return printed < options.maxRecords();
    }

    /**
     * Decodes the record at {@code offset} (a {@code CorruptLogException} if it does not
     * decode, printed or not) and prints it if it passes the filter and is not before the first
     * offset, after {@code header}'s line (text only) unless that is null; returns whether it printed.
     */
    private boolean offer(long offset, int epoch, boolean control, ByteString bytes, RecordBatch header,
                          int storedBytes) {
        if (!control && partitionsOffTheWire && partition.read(bytes)) {
            return offerPartition(offset, epoch, header, storedBytes);
        }
        return offerDecoded(offset, epoch, control, bytes, header, storedBytes);
    }

    /** {@link #offer} for the partition record {@link #partition} has just read. */
    private boolean offerPartition(long offset, int epoch, RecordBatch header, int storedBytes) {
        if (!partitionsPass || offset < options.fromOffset()) {
            return false;
        }
        printHeader(header, storedBytes);
        if (options.json()) {
            partition.printJson(offset, epoch, out);
        } else {
            partition.printText(offset, epoch, out);
        }
        printed++;
        return true;
    }

    private boolean offerDecoded(long offset, int epoch, boolean control, ByteString bytes, RecordBatch header,
                                 int storedBytes) {
        DecodedRecord record = DecodedRecord.decode(offset, epoch, control, bytes);
        if (!options.filter().accept(record) || offset < options.fromOffset()) {
            return false;
        }
        printHeader(header, storedBytes);
        out.text(options.json() ? record.jsonLine() : record.textLine()).newline();
        printed++;
        return true;
    }

    private void printHeader(RecordBatch batch, int storedBytes) {
        if (batch != null && !options.json()) {
            out.text(batchLine(batch, storedBytes)).newline();
        }
    }

    static String batchLine(RecordBatch batch, int storedBytes) {
        return "baseOffset: " + batch.getBaseOffset() + " lastOffset: " + (RecordBatches.endOffset(batch) - 1)
                + " count: " + batch.getRecordCount() + " epoch: " + batch.getEpoch() + " control: "
                + batch.getControl() + " appendTime: " + time(batch.getAppendTimeMs()) + " bytes: " + storedBytes
                + " crc32c: 0x" + crcHex(batch.getCrc());
    }

    /** Eight lowercase hex digits, as {@code String.format("%08x")} prints them. */
    private static String crcHex(int crc) {
        byte[] digits = new byte[8];
        for (int i = 7, rest = crc; i >= 0; i--, rest >>>= 4) {
            digits[i] = (byte) Character.forDigit(rest & 0xF, 16);
        }
        return new String(digits, StandardCharsets.US_ASCII);
    }

    static String time(long epochMs) {
        return epochMs < 0 ? "none" : Instant.ofEpochMilli(epochMs).toString();
    }
}
