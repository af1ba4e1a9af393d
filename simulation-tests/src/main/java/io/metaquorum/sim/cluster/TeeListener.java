package io.metaquorum.sim.cluster;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;

/** Hands every raft callback to the checked state machine first, then to the node's role. */
final class TeeListener implements RaftListener {
    private final RaftListener checked;
    private final RaftListener role;

    TeeListener(RaftListener checked, RaftListener role) {
        this.checked = checked;
        this.role = role;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        checked.handleCommit(batches);
        role.handleCommit(batches);
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
        checked.handleLoadSnapshot(snapshotId, snapshot);
        role.handleLoadSnapshot(snapshotId, snapshot);
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        checked.handleLeaderChange(leader);
        role.handleLeaderChange(leader);
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        checked.handleBecomeLeader(epoch, epochStartOffset);
        role.handleBecomeLeader(epoch, epochStartOffset);
    }

    /** The role places raft's control records, if it does: the checker's listener only watches. */
    @Override
    public boolean handleControlRecords(int epoch, List<ByteString> records) {
        return role.handleControlRecords(epoch, records);
    }

    @Override
    public void handleResign(int epoch) {
        checked.handleResign(epoch);
        role.handleResign(epoch);
    }
}
