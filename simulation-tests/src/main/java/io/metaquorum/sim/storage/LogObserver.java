package io.metaquorum.sim.storage;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;

/**
 * Lets the invariant checkers see log changes as they happen: appends, and the changes that
 * remove records, before they happen.
 */
public interface LogObserver {
    LogObserver NONE = new LogObserver() {
    };

    /** {@code log} still holds the records at and above {@code offset}. */
    default void beforeTruncate(SimRaftLog log, long offset) {
    }

    /** {@code log} was asked to drop the records at and above {@code offset}, and returned. */
    default void afterTruncate(SimRaftLog log, long offset) {
    }

    /** {@code log} has just appended {@code batch} (as leader or follower). */
    default void afterAppend(SimRaftLog log, RecordBatch batch) {
    }

    /** {@code log} is about to move its start to snapshot {@code id}, dropping the records below it. */
    default void beforeSnapshotInstalled(SimRaftLog log, OffsetAndEpoch id) {
    }
}
