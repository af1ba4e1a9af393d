package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.RecordBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WAL stays bounded while the log grows, although the meta family, written once,
 * never fills a memtable of its own: RocksDB keeps every WAL file any family still needs.
 */
class WalRetentionTest {
    private static final long MEMTABLE_BYTES = 1 << 20;
    private static final int BATCHES = 64;
    /** The cap (4 memtables), the recycled files and the file being written, with room to spare. */
    private static final long WAL_BYTES_BOUND = 16 * MEMTABLE_BYTES;
    private static final long SETTLE_WAIT_MS = 30_000;

    @TempDir
    Path directory;

    @Test
    void walFilesAreReleasedWhileOnlyTheLogFamilyIsWritten() {
        try (LogDatabase database = LogDatabase.open(directory, false, MEMTABLE_BYTES)) {
            try (LogWrite write = database.newWrite()) {
                write.putMeta(Keys.QUORUM_STATE, new byte[] {1});
                write.commitSynced();
            }
            long offset = 0;
            for (int i = 0; i < BATCHES; i++) {
                RecordBatch batch = TestBatches.batch(offset, 1, 1_000, 1_000);
                try (LogWrite write = database.newWrite()) {
                    write.putBatch(batch);
                    write.commitBuffered();
                }
                offset += batch.getRecordCount();
            }
            // Written: about 64 MiB. The flushes the cap starts run in the background, so wait
            // for them to release the old files; without the cap they never do.
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_WAIT_MS);
            while (walBytes() > WAL_BYTES_BOUND && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            long walBytes = walBytes();
            assertTrue(walBytes <= WAL_BYTES_BOUND, "WAL files hold " + walBytes + " bytes after writing "
                    + BATCHES + " MiB; bound " + WAL_BYTES_BOUND);
        }
    }

    private long walBytes() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log"))
                    .mapToLong(WalRetentionTest::size).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0; // deleted while listed
        }
    }
}
