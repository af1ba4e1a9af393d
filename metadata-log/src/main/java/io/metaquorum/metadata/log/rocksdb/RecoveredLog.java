package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.TreeMap;

/**
 * The log's state as rebuilt from the database on open.
 *
 * @param snapshotId  the snapshot recorded as the log start, or null (the log starts at 0)
 * @param offsets     the base offsets of the stored batches
 * @param epochStarts each epoch present in the log and its first offset
 * @param endOffset   one past the last stored record
 */
record RecoveredLog(OffsetAndEpoch snapshotId, BatchOffsets offsets, TreeMap<Integer, Long> epochStarts,
                    long endOffset) {
}
