package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process for {@link DurabilityTraceTest}, run under {@code strace}: writes tagged
 * batches to the metadata log in {@code args[1]} and acknowledges each one by writing
 * {@code ack <base offset>} to the marker file {@code args[2]}, one {@code write} call per
 * acknowledgement, so the trace itself orders every acknowledgement against the log's syncs.
 *
 * <p>Mode {@code synced} is the production path: appends, one {@link RaftLog#flush()} per
 * round, the acknowledgements, then a snapshot written, frozen and installed, acknowledged as
 * {@code snapshot <file name>}. Mode {@code unsynced} is the same log with its sync removed:
 * each batch goes to the same RocksDB database as the same write, committed with
 * {@code sync=false}, and is acknowledged at once. The trace checker must reject it.
 */
public final class SyncTracedWriter {
    static final int ROUNDS = 6;
    static final int BATCHES_PER_ROUND = 5;
    static final int RECORDS_PER_BATCH = 3;
    static final int EPOCH = 3;

    private SyncTracedWriter() {
    }

    /** The text every record of the batch at {@code baseOffset} holds, so the trace shows where it went. */
    static String tag(long baseOffset) {
        return "mq-batch-" + baseOffset + ";";
    }

    public static void main(String[] args) throws IOException {
        Path directory = Path.of(args[1]);
        try (FileOutputStream marker = new FileOutputStream(args[2])) {
            switch (args[0]) {
                case "synced" -> writeSynced(directory, marker);
                case "unsynced" -> writeUnsynced(directory, marker);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
        System.out.println("wrote " + ROUNDS * BATCHES_PER_ROUND + " batches in mode " + args[0]);
        // As a crash would: nothing closed, so no close-time write can make up for a missing sync.
        Runtime.getRuntime().halt(0);
    }

    private static void writeSynced(Path directory, FileOutputStream marker) throws IOException {
        MetadataLogStore store = MetadataLogStore.open(directory);
        RaftLog log = store.raftLog();
        for (int round = 0; round < ROUNDS; round++) {
            List<Long> appended = new ArrayList<>();
            for (int i = 0; i < BATCHES_PER_ROUND; i++) {
                appended.add(log.endOffset());
                log.append(taggedBatch(log.endOffset()));
            }
            log.flush();
            for (long baseOffset : appended) {
                acknowledge(marker, "ack " + baseOffset);
            }
        }
        OffsetAndEpoch id = new OffsetAndEpoch(log.endOffset(), EPOCH);
        SnapshotWriter snapshot = log.createSnapshot(id);
        snapshot.append("snapshot content".getBytes(StandardCharsets.UTF_8));
        snapshot.freeze();
        log.installSnapshot(snapshot);
        acknowledge(marker, "snapshot " + SnapshotFiles.fileName(id));
    }

    private static void writeUnsynced(Path directory, FileOutputStream marker) throws IOException {
        Files.createDirectories(directory);
        LogDatabase database = LogDatabase.open(directory.resolve(MetadataLogStore.DATABASE_DIRECTORY));
        long endOffset = 0;
        for (int i = 0; i < ROUNDS * BATCHES_PER_ROUND; i++) {
            RecordBatch batch = taggedBatch(endOffset);
            try (LogWrite write = database.newWrite()) {
                write.putBatch(batch);
                write.commitBuffered();
            }
            acknowledge(marker, "ack " + endOffset);
            endOffset = RecordBatches.endOffset(batch);
        }
    }

    private static RecordBatch taggedBatch(long baseOffset) {
        List<ByteString> values = new ArrayList<>();
        for (int i = 0; i < RECORDS_PER_BATCH; i++) {
            values.add(ByteString.copyFromUtf8(tag(baseOffset)));
        }
        return RecordBatches.build(baseOffset, EPOCH, 1_000 + baseOffset, false, values);
    }

    private static void acknowledge(FileOutputStream marker, String line) throws IOException {
        marker.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
