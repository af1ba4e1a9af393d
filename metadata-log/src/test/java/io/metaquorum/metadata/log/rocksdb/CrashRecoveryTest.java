package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that dies without closing the database leaves a log that reopens (WAL recovery).
 * A halted process keeps its page cache, so this cannot show that anything was synced:
 * {@link DurabilityTraceTest} does.
 */
class CrashRecoveryTest {
    @TempDir
    Path directory;

    @Test
    void logReopensAfterTheWritingProcessHalts() throws Exception {
        Path output = directory.resolve("child.out");
        Path logDirectory = directory.resolve("log");
        // The child halts, so its exit hooks never delete the copy of RocksDB's JNI library it
        // makes in its temporary directory: that is this test's directory, not /tmp.
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + directory, "-cp", System.getProperty("java.class.path"),
                CrashingWriter.class.getName(), logDirectory.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        // A bound against a hung child, not a timing assumption: the child does not wait for anything.
        assertTrue(child.waitFor(5, TimeUnit.MINUTES), "child did not finish");
        assertEquals(0, child.exitValue(), Files.readString(output));

        long flushedEnd = (long) CrashingWriter.FLUSHED_BATCHES * CrashingWriter.RECORDS_PER_BATCH;
        try (MetadataLogStore store = MetadataLogStore.open(logDirectory)) {
            RaftLog log = store.raftLog();
            assertTrue(log.endOffset() >= flushedEnd, "flushed batches lost: end " + log.endOffset());
            assertEquals(log.endOffset(), log.flushedEndOffset());
            List<RecordBatch> batches = log.read(0, Integer.MAX_VALUE);
            long expected = 0;
            for (RecordBatch batch : batches) {
                assertEquals(expected, batch.getBaseOffset());
                expected = RecordBatches.endOffset(batch);
            }
            assertEquals(log.endOffset(), expected);
            assertEquals(Optional.of(CrashingWriter.STATE), store.quorumStateStore().read());
            log.append(TestBatches.batch(log.endOffset(), 8, 1));
            log.flush();
        }
    }
}
