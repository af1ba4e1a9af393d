package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.RaftLog;
import java.nio.file.Path;

/**
 * A child process for {@link CrashRecoveryTest}: writes to the log in {@code args[0]}, then
 * halts the JVM without closing anything, as a crash would (no shutdown hooks, no RocksDB
 * close, the last appends never synced).
 */
public final class CrashingWriter {
    static final int FLUSHED_BATCHES = 50;
    static final int UNFLUSHED_BATCHES = 20;
    static final int RECORDS_PER_BATCH = 4;
    static final ElectionState STATE = new ElectionState(7, 2, 2);

    private CrashingWriter() {
    }

    public static void main(String[] args) {
        MetadataLogStore store = MetadataLogStore.open(Path.of(args[0]));
        RaftLog log = store.raftLog();
        for (int i = 0; i < FLUSHED_BATCHES; i++) {
            log.append(TestBatches.batch(log.endOffset(), 1 + i / 10, RECORDS_PER_BATCH, 100));
        }
        log.flush();
        store.quorumStateStore().write(STATE);
        for (int i = 0; i < UNFLUSHED_BATCHES; i++) {
            log.append(TestBatches.batch(log.endOffset(), 7, RECORDS_PER_BATCH, 100));
        }
        System.out.println("appended " + log.endOffset() + " flushed " + log.flushedEndOffset());
        Runtime.getRuntime().halt(0);
    }
}
