package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.quorum.ReplicaProgress;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.message.RaftRequest;
import java.util.List;

/**
 * DescribeQuorum: the leader reports every voter's and observer's progress (KIP-836) and
 * the voter change it has appended but not committed, if any (KIP-853);
 * any other replica answers NOT_LEADER_OR_FOLLOWER naming the leader it knows, so a tool
 * can ask the leader next.
 */
public final class DescribeQuorumHandler {
    private final CoreContext ctx;

    public DescribeQuorumHandler(CoreContext ctx) {
        this.ctx = ctx;
    }

    public void handleDescribeQuorumRequest(RaftRequest request, DescribeQuorumRequest describe, long nowMs) {
        var partition = DescribeQuorumPartitionResponse.newBuilder().setPartitionIndex(TopicIds.METADATA_PARTITION)
                .setLeaderId(ctx.currentLeaderId()).setLeaderEpoch(ctx.role().epoch()).setNowMs(nowMs);
        if (!(ctx.role() instanceof Leader leader)) {
            partition.setErrorCode(ErrorCode.NOT_LEADER_OR_FOLLOWER);
        } else {
            partition.setErrorCode(ErrorCode.NONE).setHighWatermark(ctx.commits().highWatermark())
                    .addAllCurrentVoters(states(leader.voterProgress()))
                    .addAllObservers(states(leader.observerProgress()));
            PendingVoterChanges.of(ctx.voterHistory(), ctx.commits().highWatermark())
                    .ifPresent(partition::setPendingVoterChange);
        }
        ctx.outbox().sendResponse(request, FetchRpcs.describeQuorumResponse(ctx.clusterId(), partition.build()));
    }

    private static List<ReplicaState> states(List<ReplicaProgress> progress) {
        return progress.stream().map(p -> ReplicaState.newBuilder().setReplicaId(p.replicaId())
                .setReplicaDirectoryId(p.key().directoryId())
                .setLogEndOffset(p.endOffset()).setLastFetchTimestampMs(p.lastFetchMs())
                .setLastCaughtUpTimestampMs(p.lastCaughtUpMs()).build()).toList();
    }
}
