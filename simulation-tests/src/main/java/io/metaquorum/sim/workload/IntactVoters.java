package io.metaquorum.sim.workload;

import io.metaquorum.raft.VoterSet;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The fault model's bound on disk loss at kraft.version 1: every voter set a node may act on
 * keeps a majority of voters whose listed disk still exists (the node's current disk has the
 * listed directory id). A wipe, a voter removal, or a voter held down for the liveness phase
 * that would leave fewer is not injected. Beyond the bound no leader can ever be elected
 * again without an unclean recovery (KIP-853 has none), and the checkers judge safety, not
 * that; inside it, no committed entry may be lost.
 *
 * <p>The voter sets considered are the one in force on every node (running, or the one its
 * last process saw): a VotersRecord not yet committed counts, as it does for the core.
 */
public final class IntactVoters {
    private final SimCluster cluster;

    public IntactVoters(SimCluster cluster) {
        this.cluster = cluster;
    }

    /** Whether wiping {@code target}'s disk leaves every voter set a majority of intact voters. */
    public boolean mayWipe(SimNode target) {
        for (VoterSet voters : votersInForce()) {
            if (target.listedWithOwnDisk(voters) && intact(voters, Set.of()) - 1 < voters.majority()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code voters}, once changed, has a majority of intact voters. */
    public boolean keepsMajority(VoterSet voters) {
        return voters.size() >= 1 && intact(voters, Set.of()) >= voters.majority();
    }

    /** Whether every voter set keeps a majority of intact voters that are not in {@code down}. */
    public boolean majorityUpWithout(Set<Integer> down) {
        for (VoterSet voters : votersInForce()) {
            if (intact(voters, down) < voters.majority()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the voter set in force on the running nodes with the longest log (the set a new
     * leader would be elected in) has a majority of intact voters; true when none runs.
     */
    public boolean latestSetHasIntactMajority() {
        long longest = -1;
        for (SimNode node : cluster.running()) {
            longest = Math.max(longest, node.status().logEndOffset());
        }
        for (SimNode node : cluster.running()) {
            VoterSet voters = node.voterSet();
            if (node.status().logEndOffset() == longest && voters != null && !voters.isEmpty()
                    && intact(voters, Set.of()) < voters.majority()) {
                return false;
            }
        }
        return true;
    }

    /** The listed voters whose node still has the listed disk and is not in {@code excluded}. */
    int intact(VoterSet voters, Set<Integer> excluded) {
        int count = 0;
        for (VoterSet.Voter voter : voters.voters()) {
            int id = voter.key().id();
            if (id >= 1 && id <= cluster.maxNodeId() && !excluded.contains(id)
                    && cluster.node(id).listedWithOwnDisk(voters)) {
                count++;
            }
        }
        return count;
    }

    private List<VoterSet> votersInForce() {
        List<VoterSet> sets = new ArrayList<>();
        for (SimNode node : cluster.nodes()) {
            VoterSet voters = node.voterSet();
            if (voters != null && !voters.isEmpty() && !sets.contains(voters)) {
                sets.add(voters);
            }
        }
        return sets;
    }
}
