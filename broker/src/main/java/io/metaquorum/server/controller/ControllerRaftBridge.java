package io.metaquorum.server.controller;

import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state machine raft drives on a controller node: the {@link MetadataLoader} replays
 * committed batches on the driver thread (and takes snapshots), then the controller hears
 * of the new committed image and of leadership changes on its own thread, in raft's order.
 * Commits are coalesced: the controller reads the loader's latest image when it gets to it,
 * so a burst of commits is one event.
 */
public final class ControllerRaftBridge implements RaftListener {
    private final MetadataLoader loader;
    private final ControllerEventLoop loop;
    private final AtomicBoolean commitQueued = new AtomicBoolean();

    public ControllerRaftBridge(MetadataLoader loader, ControllerEventLoop loop) {
        this.loader = loader;
        this.loop = loop;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        loader.handleCommit(batches);
        queueCommitted();
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        loader.handleLoadSnapshot(snapshotId, snapshot);
        queueCommitted();
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        loader.handleLeaderChange(leader);
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        loader.handleBecomeLeader(epoch, epochStartOffset);
        queueCommitted();
        loop.raftEvent((controller, nowMs) -> controller.handleBecomeLeader(epoch, epochStartOffset, nowMs));
    }

    @Override
    public void handleResign(int epoch) {
        loader.handleResign(epoch);
        loop.raftEvent((controller, nowMs) -> controller.handleResign(epoch));
    }

    private void queueCommitted() {
        if (commitQueued.compareAndSet(false, true)) {
            loop.raftEvent((controller, nowMs) -> {
                // Cleared before the read: a commit after it queues another event, none is missed.
                commitQueued.set(false);
                controller.handleCommitted(loader.image());
            });
        }
    }
}
