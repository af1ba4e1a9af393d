package io.metaquorum.raft;

import java.util.List;

/**
 * What one replica needs to take part in the quorum.
 *
 * @param clusterId every request carries it; a mismatch is refused with INCONSISTENT_CLUSTER_ID
 * @param localId   this replica's node id; a voter if listed in {@code voterIds}, else an observer
 * @param voterIds  the static voter set, sorted ascending
 */
public record RaftConfig(String clusterId, int localId, List<Integer> voterIds, RaftTimeouts timeouts,
                         RaftLimits limits) {
    public RaftConfig {
        voterIds = voterIds.stream().sorted().distinct().toList();
    }

    public boolean isVoter() {
        return voterIds.contains(localId);
    }

    public boolean isVoter(int nodeId) {
        return voterIds.contains(nodeId);
    }

    public int majority() {
        return voterIds.size() / 2 + 1;
    }

    /** Throws {@link IllegalArgumentException} naming the first bad value. */
    public RaftConfig validate() {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("cluster id must be set");
        }
        if (voterIds.isEmpty()) {
            throw new IllegalArgumentException("controller.quorum.voters must name at least one voter");
        }
        if (localId < 0 || voterIds.stream().anyMatch(id -> id < 0)) {
            throw new IllegalArgumentException("node ids must be >= 0");
        }
        timeouts.validate();
        limits.validate();
        return this;
    }
}
