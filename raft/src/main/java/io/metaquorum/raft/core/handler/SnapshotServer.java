package io.metaquorum.raft.core.handler;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.FetchSnapshotPartitionRequest;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.util.Optional;

/** The leader's side of FetchSnapshot: serves chunks of its latest snapshot. */
public final class SnapshotServer {
    private final CoreContext ctx;

    public SnapshotServer(CoreContext ctx) {
        this.ctx = ctx;
    }

    public void handleFetchSnapshotRequest(RaftRequest request, FetchSnapshotRequest fetch, long nowMs) {
        ErrorCode scope = FetchRpcs.checkScope(ctx.clusterId(), fetch);
        if (scope != ErrorCode.NONE) {
            ctx.outbox().sendResponse(request, RaftRpcs.topLevelError(fetch, scope));
            return;
        }
        FetchSnapshotPartitionRequest p = FetchRpcs.snapshotPartition(fetch);
        var answer = FetchRpcs.snapshotPartition(ErrorCode.NONE)
                .setCurrentLeader(RaftRpcs.leader(ctx.currentLeaderId(), ctx.role().epoch()))
                .setSnapshotId(p.getSnapshotId());
        ErrorCode error = check(fetch, p);
        if (error == ErrorCode.NONE) {
            Leader leader = (Leader) ctx.role();
            if (fetch.getReplicaId() != RaftRequest.CLIENT) {
                leader.progress(fetch.getReplicaId()).onContact(nowMs);
            }
            OffsetAndEpoch id = FetchRpcs.offsetAndEpoch(p.getSnapshotId());
            long size = ctx.log().snapshotSize(id);
            int maxBytes = Math.min(fetch.getMaxBytes() > 0 ? fetch.getMaxBytes() : Integer.MAX_VALUE,
                    ctx.config().limits().fetchSnapshotBytesMax());
            if (p.getPosition() > size) {
                error = ErrorCode.POSITION_OUT_OF_RANGE;
            } else {
                byte[] chunk = ctx.log().readSnapshot(id, p.getPosition(), maxBytes);
                answer.setSize(size).setPosition(p.getPosition()).setUnalignedRecords(ByteString.copyFrom(chunk));
            }
        }
        answer.setErrorCode(error);
        ctx.outbox().sendResponse(request, FetchRpcs.fetchSnapshotResponse(answer.build()));
    }

    private ErrorCode check(FetchSnapshotRequest fetch, FetchSnapshotPartitionRequest p) {
        // Replica id -1: an anonymous observer (KIP-595), as in FetchHandler.
        if (p.getPosition() < 0 || fetch.getReplicaId() < RaftRequest.CLIENT || !p.hasSnapshotId()) {
            return ErrorCode.INVALID_REQUEST;
        }
        if (!(ctx.role() instanceof Leader leader)) {
            return ErrorCode.NOT_LEADER_OR_FOLLOWER;
        }
        if (p.getCurrentLeaderEpoch() != leader.epoch()) {
            return p.getCurrentLeaderEpoch() < leader.epoch() ? ErrorCode.FENCED_LEADER_EPOCH
                    : ErrorCode.UNKNOWN_LEADER_EPOCH;
        }
        Optional<OffsetAndEpoch> latest = ctx.log().latestSnapshot();
        if (latest.isEmpty() || !latest.get().equals(FetchRpcs.offsetAndEpoch(p.getSnapshotId()))) {
            return ErrorCode.SNAPSHOT_NOT_FOUND;
        }
        return ErrorCode.NONE;
    }
}
