package io.metaquorum.raft;

/**
 * A read-only view of one replica for tools, tests and the simulator's invariant checks.
 *
 * @param highWatermark -1 while unknown (a new leader before it commits in its epoch)
 */
public record RaftStatus(int nodeId, RoleName role, int epoch, int leaderId, int votedId,
                         long highWatermark, long logStartOffset, long logEndOffset, long flushedEndOffset,
                         long appliedOffset) {
    public boolean isLeader() {
        return role == RoleName.LEADER;
    }
}
