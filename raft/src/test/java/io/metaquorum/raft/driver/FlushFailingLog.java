package io.metaquorum.raft.driver;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.InMemoryRaftLog;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.StorageException;
import java.util.List;
import java.util.Optional;

/** An in-memory log whose every sync fails, as a dying disk would. */
final class FlushFailingLog implements RaftLog {
    private final InMemoryRaftLog log = new InMemoryRaftLog();

    @Override
    public void flush() {
        throw new StorageException("simulated sync failure");
    }

    @Override
    public long startOffset() {
        return log.startOffset();
    }

    @Override
    public long endOffset() {
        return log.endOffset();
    }

    @Override
    public long flushedEndOffset() {
        return log.flushedEndOffset();
    }

    @Override
    public int lastEpoch() {
        return log.lastEpoch();
    }

    @Override
    public void append(RecordBatch batch) {
        log.append(batch);
    }

    @Override
    public boolean hasUnflushed() {
        return log.hasUnflushed();
    }

    @Override
    public List<RecordBatch> read(long fromOffset, int maxBytes) {
        return log.read(fromOffset, maxBytes);
    }

    @Override
    public void truncateTo(long offset) {
        log.truncateTo(offset);
    }

    @Override
    public OffsetAndEpoch endOffsetForEpoch(int epoch) {
        return log.endOffsetForEpoch(epoch);
    }

    @Override
    public Optional<OffsetAndEpoch> latestSnapshot() {
        return log.latestSnapshot();
    }

    @Override
    public SnapshotWriter createSnapshot(OffsetAndEpoch id) {
        return log.createSnapshot(id);
    }

    @Override
    public void installSnapshot(SnapshotWriter frozen) {
        log.installSnapshot(frozen);
    }

    @Override
    public long snapshotSize(OffsetAndEpoch id) {
        return log.snapshotSize(id);
    }

    @Override
    public byte[] readSnapshot(OffsetAndEpoch id, long position, int maxBytes) {
        return log.readSnapshot(id, position, maxBytes);
    }

    @Override
    public void close() {
        log.close();
    }
}
