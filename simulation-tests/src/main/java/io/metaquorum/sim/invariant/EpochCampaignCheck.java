package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import java.util.HashSet;
import java.util.Set;

/**
 * Every epoch a node enters was campaigned for first: some node was a candidate (or
 * leader) in it, or durably voted for itself in it. Epochs move only through real
 * elections (KIP-996): a pre-vote, which a partitioned node sends over and over, must never
 * move anyone to a new epoch, or that node could disrupt a healthy quorum.
 */
public final class EpochCampaignCheck {
    /** Whether some voter's disk holds a vote for itself in an epoch (a candidacy that crashed unseen). */
    @FunctionalInterface
    public interface DurableSelfVotes {
        boolean anySelfVote(int epoch);
    }

    /** Looked up only, never iterated. */
    private final Set<Integer> campaigned = new HashSet<>();

    public void observe(RaftStatus status, DurableSelfVotes durable) {
        int epoch = status.epoch();
        if (epoch == 0 || campaigned.contains(epoch)) {
            return;
        }
        RoleName role = status.role();
        if (role == RoleName.CANDIDATE || role == RoleName.LEADER || role == RoleName.RESIGNED
                || status.votedId() == status.nodeId() || durable.anySelfVote(epoch)) {
            campaigned.add(epoch);
            return;
        }
        throw new CheckFailure("epoch-campaigned", "node " + status.nodeId() + " entered epoch " + epoch + " as "
                + role + " but no node has campaigned in it");
    }
}
