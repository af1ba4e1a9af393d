package io.metaquorum.sim.system.node;

import io.metaquorum.metadata.snapshot.SnapshotScheduler;
import io.metaquorum.metadata.snapshot.SnapshotTask;

/**
 * The simulator's {@code SnapshotWriterThread}: takes one snapshot task at a time from the
 * loader and, at the node's next {@link #writePending}, writes and registers it through the
 * node's {@link RaftPort}. The loader goes on replaying in between, as it does while the
 * production thread writes; a task still pending when the process dies is lost with it.
 */
public final class SimSnapshotWriter implements SnapshotScheduler {
    private SnapshotTask pending;
    private long registered;
    private long discarded;

    @Override
    public boolean trySchedule(SnapshotTask task) {
        if (pending != null) {
            return false;
        }
        pending = task;
        return true;
    }

    /** Writes and registers the task taken, if any (the snapshot thread's turn, then the driver task). */
    public void writePending(RaftPort raft) {
        if (pending == null) {
            return;
        }
        SnapshotTask task = pending;
        pending = null;
        if (raft.registerSnapshot(task)) {
            registered++;
        } else {
            discarded++;
        }
    }

    /** Snapshots this writer registered with the core. */
    public long registered() {
        return registered;
    }

    /** Snapshots the core discarded: its log already started at or after them. */
    public long discarded() {
        return discarded;
    }
}
