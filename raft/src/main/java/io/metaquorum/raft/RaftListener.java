package io.metaquorum.raft;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.List;

/**
 * The replicated state machine, called by the core on the driver thread. Committed batches
 * arrive in offset order, each exactly once per incarnation; after
 * {@link #handleLoadSnapshot} the state machine must drop its state and take the
 * snapshot's, then commits continue from the snapshot's offset.
 */
public interface RaftListener {
    /** Batches at or below the high watermark, in order, control batches included. */
    void handleCommit(List<RecordBatch> batches);

    /** Replace all state by the snapshot ({@code content} as written by SnapshotCodec). */
    void handleLoadSnapshot(OffsetAndEpoch snapshotId, byte[] content);

    /** The known leader changed: {@code leaderId} is -1 while unknown. */
    void handleLeaderChange(int leaderId, int epoch);
}
