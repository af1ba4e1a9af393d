package io.metaquorum.metadata.log.rocksdb;

import static io.metaquorum.metadata.log.rocksdb.TestBatches.batch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.StorageException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Corruption planted on disk is detected on open or on read, naming the batch's offset. */
class LogCorruptionTest {
    @TempDir
    Path directory;

    /** Writes batches at offsets 0, 3, 6 and 9 (3 records each) and closes the log. */
    private void writeLog() {
        try (MetadataLogStore store = MetadataLogStore.open(directory)) {
            RaftLog log = store.raftLog();
            for (int i = 0; i < 4; i++) {
                log.append(batch(log.endOffset(), 1, 3));
            }
            log.flush();
        }
    }

    private static byte[] flipByte(byte[] value, int index) {
        byte[] flipped = value.clone();
        flipped[index] ^= 0x20;
        return flipped;
    }

    @Test
    void flippedRecordByteInTheMiddleIsDetectedOnRead() throws Exception {
        writeLog();
        byte[] stored = RawDatabase.get(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(3));
        RawDatabase.put(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(3), flipByte(stored, stored.length - 10));
        try (MetadataLogStore store = MetadataLogStore.open(directory, 0)) {
            RaftLog log = store.raftLog();
            assertEquals(12, log.endOffset());
            assertEquals(1, log.read(0, 1).size());
            CorruptLogException e = assertThrows(CorruptLogException.class, () -> log.read(4, 1));
            assertEquals(3, e.offset());
            assertTrue(e.getMessage().contains("offset 3"), e.getMessage());
            assertEquals(3, assertThrows(CorruptLogException.class, () -> log.read(0, Integer.MAX_VALUE)).offset());
            assertEquals(3, assertThrows(CorruptLogException.class, () -> log.truncateTo(4)).offset());
        }
    }

    @Test
    void garbageValueIsDetectedOnRead() throws Exception {
        writeLog();
        RawDatabase.put(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(6), new byte[] {(byte) 0xff, 0x01, 0x02});
        try (MetadataLogStore store = MetadataLogStore.open(directory, 0)) {
            assertEquals(6, assertThrows(CorruptLogException.class, () -> store.raftLog().read(7, 100)).offset());
        }
    }

    @Test
    void corruptTailStopsTheOpen() throws Exception {
        writeLog();
        byte[] stored = RawDatabase.get(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(9));
        RawDatabase.put(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(9), flipByte(stored, stored.length - 6));
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> MetadataLogStore.open(directory));
        assertEquals(9, e.offset());
    }

    @Test
    void tornTailStopsTheOpen() throws Exception {
        writeLog();
        byte[] stored = RawDatabase.get(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(9));
        byte[] torn = Arrays.copyOf(stored, stored.length / 2);
        RawDatabase.put(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(9), torn);
        assertEquals(9, assertThrows(CorruptLogException.class, () -> MetadataLogStore.open(directory)).offset());
    }

    @Test
    void batchStoredUnderTheWrongKeyIsDetected() throws Exception {
        writeLog();
        byte[] stored = RawDatabase.get(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(0));
        RawDatabase.put(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(3), stored);
        try (MetadataLogStore store = MetadataLogStore.open(directory, 0)) {
            assertEquals(3, assertThrows(CorruptLogException.class, () -> store.raftLog().read(3, 100)).offset());
        }
    }

    @Test
    void missingBatchIsDetectedOnRead() throws Exception {
        writeLog();
        RawDatabase.delete(directory, LogDatabase.LOG_FAMILY, Keys.offsetKey(3));
        try (MetadataLogStore store = MetadataLogStore.open(directory, 0)) {
            // The index is rebuilt from the keys; the gap shows as a batch ending short of its successor.
            assertEquals(3, assertThrows(CorruptLogException.class,
                    () -> store.raftLog().read(0, Integer.MAX_VALUE)).offset());
            assertEquals(3, assertThrows(CorruptLogException.class, () -> store.raftLog().read(4, 1)).offset());
        }
    }

    @Test
    void epochIndexThatDisagreesWithTheLogStopsTheOpen() throws Exception {
        writeLog();
        RawDatabase.put(directory, LogDatabase.EPOCHS_FAMILY, Keys.epochKey(2), Keys.offsetValue(5));
        assertThrows(StorageException.class, () -> MetadataLogStore.open(directory));
    }
}
