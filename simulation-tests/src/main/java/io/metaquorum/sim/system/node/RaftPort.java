package io.metaquorum.sim.system.node;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.raft.AppendResult;
import java.util.List;

/**
 * What a simulated node's state machine asks of its raft core, made by the node's driver on
 * the node's one simulated thread after the core call that delivered the event returned (never
 * from inside a core callback): the simulator's counterpart of production's
 * {@code RaftAppendSink} over {@code RaftNode}, and of the driver task by which production's
 * {@code SnapshotWriterThread} registers a snapshot it wrote.
 */
public interface RaftPort {
    /** An atomic append pinned to {@code epoch}. */
    AppendResult append(int epoch, List<ByteString> records, long nowMs);

    /** Appends the control records raft handed the state machine for {@code epoch}. */
    AppendResult appendControl(int epoch, List<ByteString> records, long nowMs);

    /** Resign {@code epoch} if this node still leads it. */
    void resign(int epoch, long nowMs);

    /**
     * Writes {@code task}'s image into a new snapshot of the node's log and registers it with
     * the core; false when the core discarded it (its log already starts at or after it).
     */
    boolean registerSnapshot(SnapshotTask task);
}
