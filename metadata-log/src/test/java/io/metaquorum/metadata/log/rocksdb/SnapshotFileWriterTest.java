package io.metaquorum.metadata.log.rocksdb;

import static io.metaquorum.metadata.log.rocksdb.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.raft.snapshot.SnapshotDecoder;
import io.metaquorum.raft.snapshot.SnapshotEncoder;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshot files written chunk by chunk into a temporary file, installed by a rename, read by position. */
class SnapshotFileWriterTest {
    private static final OffsetAndEpoch ID = new OffsetAndEpoch(6, 1);

    @TempDir
    Path directory;
    private MetadataLogStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private RaftLog open() {
        if (store != null) {
            store.close();
        }
        store = MetadataLogStore.open(directory, 0);
        return store.raftLog();
    }

    private List<String> snapshotFileNames() throws IOException {
        try (Stream<Path> files = Files.list(directory.resolve("snapshots"))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static List<ByteString> records(int count) {
        List<ByteString> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(ByteString.copyFromUtf8("record " + i + " " + "y".repeat(i % 50)));
        }
        return records;
    }

    /** A snapshot of {@code count} records, in batches of 10: many chunks of a few hundred bytes. */
    private static void writeRecords(SnapshotWriter writer, int count) {
        SnapshotEncoder encoder = new SnapshotEncoder(writer, 5L, 10, 1 << 20);
        records(count).forEach(encoder::add);
        encoder.finish();
    }

    @Test
    void aSnapshotIsInvisibleUntilInstalledThenMovesTheLogStart() throws IOException {
        RaftLog log = open();
        log.append(batch(0, 1, 4));
        log.append(batch(4, 1, 2));
        log.append(batch(6, 1, 3));
        log.flush();
        SnapshotWriter writer = log.createSnapshot(ID);
        writeRecords(writer, 2_000);
        assertEquals(1, snapshotFileNames().size());
        assertTrue(snapshotFileNames().get(0).endsWith(".part"), snapshotFileNames().toString());
        assertTrue(log.latestSnapshot().isEmpty(), "frozen is not installed");

        log.installSnapshot(writer);
        writer.close();
        assertEquals(List.of(SnapshotFiles.fileName(ID)), snapshotFileNames(), "renamed; nothing left behind");
        assertEquals(6, log.startOffset(), "the log before the snapshot is deleted");
        assertEquals(List.of(6L), log.read(6, 1 << 20).stream().map(b -> b.getBaseOffset()).toList());

        RaftLog reopened = open();
        assertEquals(ID, reopened.latestSnapshot().orElseThrow());
        assertEquals(records(2_000), readAll(SnapshotReader.of(reopened, ID)));
    }

    @Test
    void chunksReadAtAnyPositionReassembleTheFile() throws IOException {
        RaftLog log = open();
        SnapshotWriter writer = log.createSnapshot(ID);
        writeRecords(writer, 500);
        log.installSnapshot(writer);
        byte[] whole = Files.readAllBytes(directory.resolve("snapshots").resolve(SnapshotFiles.fileName(ID)));
        assertEquals(whole.length, log.snapshotSize(ID));
        java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
        for (long position = 0; position < whole.length; position += 333) {
            joined.writeBytes(log.readSnapshot(ID, position, 333));
        }
        assertArrayEquals(whole, joined.toByteArray());
    }

    @Test
    void aWriterClosedBeforeInstallLeavesNothingAndAPartialFileIsDeletedOnOpen() throws IOException {
        RaftLog log = open();
        SnapshotWriter abandoned = log.createSnapshot(ID);
        abandoned.append(new byte[100]);
        abandoned.close();
        assertEquals(List.of(), snapshotFileNames());
        SnapshotWriter crashed = log.createSnapshot(ID);
        crashed.append(new byte[100]);
        open();
        assertEquals(List.of(), snapshotFileNames(), "a crash leaves only a .part file, removed on the next open");
    }

    @Test
    void twoWritersOfOneIdDoNotShareAFile() {
        RaftLog log = open();
        SnapshotWriter first = log.createSnapshot(ID);
        SnapshotWriter second = log.createSnapshot(ID);
        writeRecords(first, 20);
        second.append(new byte[] {1, 2, 3});
        second.close();
        log.installSnapshot(first);
        assertEquals(records(20), readAll(SnapshotReader.of(log, ID)));
    }

    @Test
    void aTruncatedFileOnDiskNamesTheSnapshotAndWhereItEnds() throws IOException {
        RaftLog log = open();
        SnapshotWriter writer = log.createSnapshot(ID);
        writeRecords(writer, 300);
        log.installSnapshot(writer);
        Path file = directory.resolve("snapshots").resolve(SnapshotFiles.fileName(ID));
        long cut = Files.size(file) - 40;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(cut);
        }
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> readAll(SnapshotReader.of(log, ID)));
        assertTrue(e.getMessage().contains("snapshot " + ID), e.getMessage());
        assertTrue(e.offset() <= cut, "the byte position of the cut batch: " + e.offset());
    }

    private static List<ByteString> readAll(SnapshotReader reader) {
        SnapshotDecoder decoder = SnapshotDecoder.of(reader);
        List<ByteString> records = new ArrayList<>();
        for (List<ByteString> batch = decoder.nextBatch(); batch != null; batch = decoder.nextBatch()) {
            records.addAll(batch);
        }
        return records;
    }
}
