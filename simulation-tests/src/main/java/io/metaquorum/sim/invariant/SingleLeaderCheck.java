package io.metaquorum.sim.invariant;

import io.metaquorum.raft.core.RaftStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * At most one leader per epoch, over the whole run: once a node has been leader of an
 * epoch, no other node may ever be.
 */
public final class SingleLeaderCheck {
    /** Looked up only, never iterated. */
    private final Map<Integer, Integer> leaderByEpoch = new HashMap<>();

    /** How many epochs have had a leader. */
    public int leaderEpochCount() {
        return leaderByEpoch.size();
    }

    public void observe(RaftStatus status) {
        if (!status.isLeader()) {
            return;
        }
        Integer previous = leaderByEpoch.putIfAbsent(status.epoch(), status.nodeId());
        if (previous != null && previous != status.nodeId()) {
            throw new CheckFailure("single-leader-per-epoch", "nodes " + previous + " and " + status.nodeId()
                    + " both led epoch " + status.epoch());
        }
    }
}
