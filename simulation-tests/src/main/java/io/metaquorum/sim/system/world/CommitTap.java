package io.metaquorum.sim.system.world;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.InvalidRecordException;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.system.invariant.ImageReplayCheck;
import java.util.List;

/**
 * Shows every committed batch to the checkers' replay before the node's own listener gets
 * it; a record the node's replay refuses (production's replay validates every record, and
 * a node that refuses a committed one stops) fails {@link #NAME}: the checkers' replay
 * accepted that committed log, so the node replays something else than that log. (An image
 * that differs from the replay without any refusal is {@link ImageReplayCheck}'s.)
 */
public final class CommitTap implements RaftListener {
    public static final String NAME = "committed-record-accepted";

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
        return new CheckFailure(NAME, "node " + nodeId + " refused a record of " + what
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
    public boolean handleControlRecords(int epoch, List<ByteString> records) {
        boolean taken = target.handleControlRecords(epoch, records);
        if (taken) {
            world.onVoterChangeTaken();
        }
        return taken;
    }

    @Override
    public void handleResign(int epoch) {
        target.handleResign(epoch);
    }
}
