package io.metaquorum.raft;

/**
 * The leader a replica knows in an epoch. {@link #NO_LEADER} is the one spelling of "no
 * leader known", whatever the reason: an election is running, the epoch's leader has not
 * been heard from yet, or this replica resigned the epoch it led.
 *
 * @param leaderId the leader's node id, or {@link #NO_LEADER}
 * @param epoch    the epoch this replica is in, {@code >= 0}
 */
public record LeaderAndEpoch(int leaderId, int epoch) {
    public static final int NO_LEADER = -1;

    public LeaderAndEpoch {
        if (leaderId < NO_LEADER || epoch < 0) {
            throw new IllegalArgumentException("leader " + leaderId + " in epoch " + epoch);
        }
    }

    public static LeaderAndEpoch noLeader(int epoch) {
        return new LeaderAndEpoch(NO_LEADER, epoch);
    }

    public boolean hasLeader() {
        return leaderId != NO_LEADER;
    }

    public boolean isLeader(int nodeId) {
        return hasLeader() && leaderId == nodeId;
    }
}
