package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.StorageException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocksdb.RocksIterator;

/**
 * Rebuilds the log's in-memory state on open, after RocksDB has replayed its WAL, and
 * refuses to start on anything inconsistent.
 *
 * <p>It scans the keys of {@code log} and the {@code epochs} family, parses and CRC-checks
 * the tail batch (a torn or corrupt tail throws {@code CorruptLogException} naming its
 * offset), checks that the log starts where {@code meta} says and that the epoch index
 * agrees with it, then syncs the WAL: whatever recovery replayed is durable from here on,
 * so the flushed end offset is the end offset.
 *
 * <p>Snapshots: an installation writes the file, then records it in {@code meta} in the
 * same synced write that moves the log start, then deletes the previous file. A crash
 * between the first two leaves a file newer than the recorded one: the installation is
 * finished here, by the same rule. Older files are deleted.
 */
final class LogRecovery {
    private final LogDatabase database;
    private final SnapshotFiles snapshots;
    /** A read-only open repairs nothing: no WAL sync, no snapshot clean-up. */
    private final boolean readOnly;

    LogRecovery(LogDatabase database, SnapshotFiles snapshots, boolean readOnly) {
        this.database = database;
        this.snapshots = snapshots;
        this.readOnly = readOnly;
    }

    RecoveredLog recoverLog() {
        byte[] recordedValue = database.get(database.meta(), Keys.LOG_START);
        OffsetAndEpoch recorded = recordedValue == null ? null : Keys.snapshotIdOf(recordedValue);
        long startOffset = recorded == null ? 0 : recorded.offset();
        BatchOffsets offsets = scanBaseOffsets();
        TreeMap<Integer, Long> epochStarts = scanEpochStarts();
        long endOffset = startOffset;
        if (!offsets.isEmpty()) {
            long lastBase = offsets.last();
            RecordBatch last = RocksDbRaftLog.parseStored(lastBase,
                    database.get(database.log(), Keys.offsetKey(lastBase)));
            endOffset = RecordBatches.endOffset(last);
            require(offsets.get(0) == startOffset, "the first batch is at " + offsets.get(0)
                    + " but the log start recorded in meta is " + startOffset);
            require(!epochStarts.isEmpty() && epochStarts.lastKey() == last.getEpoch(),
                    "the last batch has epoch " + last.getEpoch() + " but the epoch index is " + epochStarts);
        }
        requireEpochIndexWithin(epochStarts, startOffset, endOffset);
        if (!readOnly) {
            database.syncWal();
        }
        return new RecoveredLog(recorded, offsets, epochStarts, endOffset);
    }

    void finishSnapshotInstall(RocksDbRaftLog log) {
        if (readOnly) {
            return;
        }
        OffsetAndEpoch recorded = log.latestSnapshot().orElse(null);
        List<OffsetAndEpoch> stored = snapshots.list();
        require(recorded == null || stored.contains(recorded), "snapshot " + recorded
                + " is recorded as the log start but its file is missing");
        OffsetAndEpoch newest = stored.isEmpty() ? null : stored.get(stored.size() - 1);
        if (newest != null && (recorded == null || SnapshotFiles.BY_AGE.compare(newest, recorded) > 0)) {
            require(recorded == null || newest.epoch() >= recorded.epoch(), "snapshot file " + newest
                    + " is newer than the recorded " + recorded + " but has a lower epoch");
            log.moveStartTo(newest);
        }
        for (OffsetAndEpoch id : stored) {
            if (!id.equals(newest)) {
                snapshots.delete(id);
            }
        }
    }

    private BatchOffsets scanBaseOffsets() {
        BatchOffsets offsets = new BatchOffsets();
        try (RocksIterator iterator = database.newIterator(database.log())) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                offsets.add(Keys.offsetOf(iterator.key()));
            }
            database.checkIterator(iterator);
        }
        return offsets;
    }

    private TreeMap<Integer, Long> scanEpochStarts() {
        TreeMap<Integer, Long> epochStarts = new TreeMap<>();
        try (RocksIterator iterator = database.newIterator(database.epochs())) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                epochStarts.put(Keys.epochOf(iterator.key()), Keys.offsetValueOf(iterator.value(), "epoch start"));
            }
            database.checkIterator(iterator);
        }
        return epochStarts;
    }

    /** The index must start at the log start (if non-empty) and rise strictly below the end. */
    private void requireEpochIndexWithin(TreeMap<Integer, Long> epochStarts, long startOffset, long endOffset) {
        long previous = startOffset - 1;
        for (Map.Entry<Integer, Long> entry : epochStarts.entrySet()) {
            boolean first = previous == startOffset - 1;
            require(entry.getValue() > previous && entry.getValue() < endOffset
                            && (!first || entry.getValue() == startOffset),
                    "epoch " + entry.getKey() + " starts at " + entry.getValue() + ", out of order in the log ["
                            + startOffset + ", " + endOffset + ")");
            previous = entry.getValue();
        }
    }

    private void require(boolean condition, String problem) {
        if (!condition) {
            throw new StorageException("inconsistent metadata log in " + database.directory() + ": " + problem);
        }
    }
}
