package io.metaquorum.metadata.snapshot;

/**
 * Where the loader hands the snapshots it decides to take. A node's scheduler writes them on
 * a thread of its own and registers each with the raft core on the driver thread
 * ({@link io.metaquorum.metadata.snapshot.thread.SnapshotWriterThread}); tests write them
 * at once. One snapshot is written at a time.
 */
public interface SnapshotScheduler {
    /** Starts writing {@code task}; false (and nothing done) while an earlier one is still being written. */
    boolean trySchedule(SnapshotTask task);
}
