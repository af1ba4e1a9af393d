package io.metaquorum.sim.invariant;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.Optional;

/**
 * Snapshots sit at the log start, and hold committed records only: the newest snapshot's
 * offset is the log start offset, lies within the committed prefix, and names the epoch of
 * the committed record just below it.
 */
public final class SnapshotCheck {
    public void observe(int nodeId, long logStartOffset, Optional<OffsetAndEpoch> snapshot, CommittedPrefix committed) {
        long snapshotOffset = snapshot.map(OffsetAndEpoch::offset).orElse(0L);
        if (snapshotOffset != logStartOffset) {
            throw new CheckFailure("snapshot-at-log-start", "node " + nodeId + " has log start " + logStartOffset
                    + " but its newest snapshot is " + snapshot.map(Object::toString).orElse("none"));
        }
        if (snapshot.isEmpty() || snapshotOffset == 0) {
            return;
        }
        OffsetAndEpoch id = snapshot.get();
        if (id.offset() > committed.committedEndOffset()) {
            return; // Not judged yet: the committed prefix is still catching up (see InvariantChecker).
        }
        int committedEpoch = committed.committedEpochAt(id.offset() - 1);
        if (committedEpoch != id.epoch()) {
            throw new CheckFailure("snapshot-at-log-start", "node " + nodeId + " holds snapshot " + id
                    + " but the committed record at " + (id.offset() - 1) + " has epoch " + committedEpoch);
        }
    }
}
