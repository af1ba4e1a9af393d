package io.metaquorum.sim.system.world;

import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.sim.cluster.NodeRole;
import io.metaquorum.sim.invariant.CheckFailure;
import io.metaquorum.sim.system.invariant.ImageReplayCheck;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.node.ControllerAdminEndpoint;
import io.metaquorum.sim.system.node.LifecycleAnswer;
import io.metaquorum.sim.system.node.RaftPort;
import io.metaquorum.sim.system.node.SimControllerNode;
import io.metaquorum.sim.system.node.SimSnapshotWriter;
import io.metaquorum.sim.system.workload.AdminAnswer;
import io.metaquorum.sim.system.workload.AdminCall;
import io.metaquorum.sim.system.workload.ItemResult;
import java.util.List;
import java.util.function.Consumer;

/**
 * A voter's role in system mode: the real controller ({@link SimControllerNode}) of one
 * process incarnation and its admin service. Answers owed when the process ends are never
 * sent (the connection died with it).
 */
final class ControllerRole implements NodeRole {
    private final SimControllerNode node;
    private final ControllerAdminEndpoint admin;
    private final RaftListener listener;
    private final SimSnapshotWriter snapshots;
    private boolean alive = true;

    ControllerRole(SimControllerNode node, SimSnapshotWriter snapshots, int writeTimeoutMs,
                   SystemWorld world) {
        this.node = node;
        this.snapshots = snapshots;
        this.admin = node.adminEndpoint(writeTimeoutMs);
        this.listener = new CommitTap(node, world, node.nodeId());
    }

    SimControllerNode node() {
        return node;
    }

    @Override
    public RaftListener listener() {
        return listener;
    }

    @Override
    public long drive(RaftPort raft, long nowMs) {
        snapshots.writePending(raft);
        return node.drive(raft, nowMs);
    }

    @Override
    public void stopped() {
        alive = false;
    }

    void handleLifecycle(LifecycleCall call, long nowMs, Consumer<LifecycleAnswer> reply) {
        node.handleLifecycle(call, nowMs, answer -> {
            if (alive) {
                reply.accept(answer);
            }
        });
    }

    /** The end of the controller's decision image: committed, plus what its leadership appended. */
    long decisionEndOffset() {
        return node.controller().decisionImage().committedEndOffset();
    }

    void handleAdmin(AdminCall call, long nowMs, Consumer<AdminAnswer> reply) {
        admin.handle(call, nowMs, answer -> {
            checkReadIsCurrent(answer);
            if (alive) {
                reply.accept(answer);
            }
        });
    }

    /**
     * A read is answered at once from the controller's current committed image, the one last
     * handed to it (its loader's image may be ahead by what the controller's event queue has
     * not reached yet): its offset is that image's ({@link AdminDriver#READ_CURRENT}). A read path that lags steadily behind keeps the
     * offsets a client reads monotonic and every image it serves equal to the replay, so
     * neither of those checks sees it.
     */
    private void checkReadIsCurrent(AdminAnswer answer) {
        long current = node.handedCommitted().lastCommittedOffset();
        for (ItemResult item : answer.items()) {
            long offset = item.output() instanceof AdminOutput.Described d ? d.offset()
                    : item.output() instanceof AdminOutput.Listed l ? l.offset() : current;
            if (offset != current) {
                throw new CheckFailure(AdminDriver.READ_CURRENT, "a read of " + item.item() + " on controller "
                        + node.nodeId() + " was answered from the image at " + offset + ", its image is at "
                        + current);
            }
        }
    }

    /** What a node that runs no controller answers an admin call: NOT_CONTROLLER for every item. */
    static AdminAnswer notController(AdminCall call) {
        return new AdminAnswer(call.items().stream().map(item -> new ItemResult(item,
                ErrorCode.NOT_CONTROLLER,
                AdminOutput.WriteResult.failed(ErrorCode.NOT_CONTROLLER))).toList(), -1);
    }

    /**
     * Shows every committed batch to the checkers' replay before the node's own listener gets
     * it; a record the node's replay refuses (production's replay validates every record, and
     * a node that refuses a committed one stops) fails {@code image-equals-replay}: the
     * checkers' replay accepted that committed log, so the node's image is not its replay.
     */
    static final class CommitTap implements RaftListener {
        private final RaftListener target;
        private final SystemWorld world;
        private final int nodeId;

        CommitTap(RaftListener target, SystemWorld world, int nodeId) {
            this.target = target;
            this.world = world;
            this.nodeId = nodeId;
        }

        @Override
        public void handleCommit(List<RecordBatch> batches) {
            world.onCommitted(batches);
            try {
                target.handleCommit(batches);
            } catch (InvalidRecordException e) {
                throw refused("a committed batch", e);
            }
        }

        @Override
        public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
            world.onSnapshotLoaded();
            try {
                target.handleLoadSnapshot(snapshotId, snapshot);
            } catch (InvalidRecordException e) {
                throw refused("snapshot " + snapshotId, e);
            }
        }

        private CheckFailure refused(String what, InvalidRecordException e) {
            return new CheckFailure(ImageReplayCheck.NAME, "node " + nodeId + " refused a record of " + what
                    + " the committed log replays: " + e.getMessage());
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leader) {
            target.handleLeaderChange(leader);
        }

        @Override
        public void handleBecomeLeader(int epoch, long epochStartOffset) {
            target.handleBecomeLeader(epoch, epochStartOffset);
        }

        @Override
        public void handleResign(int epoch) {
            target.handleResign(epoch);
        }
    }
}
