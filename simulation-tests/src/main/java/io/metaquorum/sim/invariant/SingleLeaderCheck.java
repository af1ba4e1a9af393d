package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.RaftStatus;
import java.util.HashMap;
import java.util.Map;

/**
 * At most one leader per epoch, over the whole run: once a node has been leader of an
 * epoch, no other node may ever be.
 *
 * <p>Two witnesses: each node's status after every event, and every LeaderChange control
 * record any log appends (a leader appends one, naming itself, the moment it takes office,
 * and followers append the same record as they replicate it). The records catch a leadership
 * that begins and ends within one event, which no status observation sees.
 */
public final class SingleLeaderCheck {
    /** Looked up only, never iterated. */
    private final Map<Integer, Integer> leaderByEpoch = new HashMap<>();

    /** How many epochs have had a leader. */
    public int leaderEpochCount() {
        return leaderByEpoch.size();
    }

    public void observe(RaftStatus status) {
        if (status.isLeader()) {
            observeLeader(status.epoch(), status.nodeId(), "as leader");
        }
    }

    /** Node {@code appenderId}'s log appended a LeaderChange record of {@code epoch} naming {@code leaderId}. */
    public void observeLeaderRecord(int epoch, int leaderId, int appenderId) {
        observeLeader(epoch, leaderId, "in a LeaderChange record node " + appenderId + " appended");
    }

    private void observeLeader(int epoch, int leaderId, String how) {
        Integer previous = leaderByEpoch.putIfAbsent(epoch, leaderId);
        if (previous != null && previous != leaderId) {
            throw new CheckFailure("single-leader-per-epoch", "nodes " + previous + " and " + leaderId
                    + " both led epoch " + epoch + " (the second seen " + how + ")");
        }
    }
}
