package io.metaquorum.node.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.node.trace.AppendTraces;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;

/**
 * The state machine raft drives on a controller node: the {@link MetadataLoader} replays
 * committed batches at once, on raft's thread (and takes snapshots), then the controller hears
 * of the new committed image and of leadership changes as raft events, in raft's order.
 * Commits are coalesced: the controller reads the loader's newest image when it gets to it, so
 * a burst of commits is one event.
 *
 * <p>Invariant: {@code commitQueued} is set only on raft's thread and cleared by the queued
 * event before it reads the image, so a commit after the clearing queues another event and
 * none is missed (both fields are volatile: the server runs raft and the controller on two
 * threads).
 */
public final class ControllerStateMachine implements RaftListener {
    private final MetadataLoader loader;
    private final ControllerQueues queues;
    private final AppendTraces traces;
    private volatile boolean commitQueued;
    private volatile LeaderAndEpoch leader = LeaderAndEpoch.noLeader(0);

    public ControllerStateMachine(MetadataLoader loader, ControllerQueues queues, AppendTraces traces) {
        this.loader = loader;
        this.queues = queues;
        this.traces = traces;
    }

    /** The raft leader (so the active controller) this node knows, -1 when none. */
    public int knownLeaderId() {
        return leader.leaderId();
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        long lastOffset = batches.isEmpty() ? -1 : RecordBatches.endOffset(batches.get(batches.size() - 1)) - 1;
        traces.committed(lastOffset);
        loader.handleCommit(batches);
        traces.loaded(lastOffset);
        queueCommitted();
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        loader.handleLoadSnapshot(snapshotId, snapshot);
        queueCommitted();
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch newLeader) {
        loader.handleLeaderChange(newLeader);
        leader = newLeader;
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        loader.handleBecomeLeader(epoch, epochStartOffset);
        queueCommitted();
        queues.addRaftEvent((controller, nowMs) -> controller.handleBecomeLeader(epoch, epochStartOffset, nowMs));
    }

    /** The controller appends raft's control records in its own order (it counts its offsets ahead of raft). */
    @Override
    public boolean handleControlRecords(int epoch, List<ByteString> records) {
        queues.addRaftEvent((controller, nowMs) -> controller.handleControlRecords(epoch, records));
        return true;
    }

    @Override
    public void handleResign(int epoch) {
        loader.handleResign(epoch);
        queues.addRaftEvent((controller, nowMs) -> controller.handleResign(epoch));
    }

    private void queueCommitted() {
        if (!commitQueued) {
            commitQueued = true;
            queues.addRaftEvent((controller, nowMs) -> {
                commitQueued = false;
                controller.handleCommitted(loader.image());
            });
        }
    }
}
