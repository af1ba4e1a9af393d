package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.Optional;

/**
 * Snapshots sit at the log start, and hold committed records only: the newest snapshot's
 * offset is the log start offset, lies within the committed prefix, and names the epoch of
 * the committed record just below it. A snapshot beyond the committed prefix known so far
 * cannot be judged yet: {@link #observe} says so, and the caller asks again until it is
 * judged (at the end of a run every running node's snapshot must have been).
 */
public final class SnapshotCheck {
    /** Returns false if the snapshot lies beyond the committed prefix and is still to be judged. */
    public boolean observe(int nodeId, long logStartOffset, Optional<OffsetAndEpoch> snapshot,
                           CommittedPrefix committed) {
        long snapshotOffset = snapshot.map(OffsetAndEpoch::offset).orElse(0L);
        if (snapshotOffset != logStartOffset) {
            throw new CheckFailure("snapshot-at-log-start", "node " + nodeId + " has log start " + logStartOffset
                    + " but its newest snapshot is " + snapshot.map(Object::toString).orElse("none"));
        }
        if (snapshot.isEmpty() || snapshotOffset == 0) {
            return true;
        }
        OffsetAndEpoch id = snapshot.get();
        if (id.offset() > committed.committedEndOffset()) {
            return false;
        }
        int committedEpoch = committed.committedEpochAt(id.offset() - 1);
        if (committedEpoch != id.epoch()) {
            throw new CheckFailure("snapshot-at-log-start", "node " + nodeId + " holds snapshot " + id
                    + " but the committed record at " + (id.offset() - 1) + " has epoch " + committedEpoch);
        }
        return true;
    }

    /** At the end of a run: a snapshot still beyond the committed prefix names records that never committed. */
    public void requireJudged(int nodeId, long logStartOffset, Optional<OffsetAndEpoch> snapshot,
                              CommittedPrefix committed) {
        if (!observe(nodeId, logStartOffset, snapshot, committed)) {
            throw new CheckFailure("snapshot-at-log-start", "node " + nodeId + " holds snapshot " + snapshot.get()
                    + " at the end of the run, beyond the committed log's end " + committed.committedEndOffset());
        }
    }
}
