package io.metaquorum.raft.driver;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotReader;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import io.metaquorum.raft.storage.RecordBatches;

/** Records what the core tells the state machine; called on the driver thread. */
final class RecordingListener implements RaftListener {
    private final int localId;
    final CompletableFuture<Integer> leadsInEpoch = new CompletableFuture<>();
    /** The first handleBecomeLeader: {epoch, epochStartOffset}. */
    final CompletableFuture<long[]> becameLeader = new CompletableFuture<>();
    /** Records of committed data batches (control batches left out), in commit order. */
    final LinkedBlockingQueue<ByteString> committedRecords = new LinkedBlockingQueue<>();

    RecordingListener(int localId) {
        this.localId = localId;
    }

    @Override
    public void handleCommit(List<RecordBatch> batches) {
        for (RecordBatch batch : batches) {
            if (!batch.getControl()) {
                committedRecords.addAll(RecordBatches.records(batch));
            }
        }
    }

    @Override
    public void handleLoadSnapshot(OffsetAndEpoch snapshotId, SnapshotReader snapshot) {
    }

    @Override
    public void handleLeaderChange(LeaderAndEpoch leader) {
        if (leader.isLeader(localId)) {
            leadsInEpoch.complete(leader.epoch());
        }
    }

    @Override
    public void handleBecomeLeader(int epoch, long epochStartOffset) {
        becameLeader.complete(new long[] {epoch, epochStartOffset});
    }

    @Override
    public void handleResign(int epoch) {
    }
}
