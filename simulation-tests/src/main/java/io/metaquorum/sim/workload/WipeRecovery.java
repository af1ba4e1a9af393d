package io.metaquorum.sim.workload;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.invariant.CommittedPrefix;
import java.util.Map;
import java.util.TreeMap;

/**
 * When a voter whose disk was wiped may come back. A static voter set (no KIP-853 directory
 * ids) cannot tell a replaced disk from the old one, so the returning voter has forgotten
 * its votes and its log; that is outside Raft's fault model, and rejoining at the wrong
 * moment breaks safety in ways that are not bugs of the core. It rejoins only when:
 * <ol>
 *   <li>it can no longer vote twice where it matters: it can only have voted for another
 *       candidate in an epoch some other voter also reached, so every other voter must be
 *       past the highest such epoch (or in it, but not campaigning in it);</li>
 *   <li>no leader that was in office at the wipe still is: such a leader may still count
 *       the voter's acknowledgments from before the wipe (the fault injector asks it to
 *       resign, as an operator bounces leadership before re-adding a replaced disk);</li>
 *   <li>enough other voters durably hold the committed prefix that the voters lacking it
 *       (the wiped one included) cannot form a majority to elect a leader without it.</li>
 * </ol>
 * The third rule also decides whether a voter may be wiped at all, and so does recovery:
 * no voter is wiped while another is waiting or still recovering (back, but not yet holding
 * the epoch and the committed prefix the others had when it returned), or the voter set
 * could forget an epoch altogether and elect a second leader in it.
 */
final class WipeRecovery {
    private final SimCluster cluster;
    private final CommittedPrefix committed;
    private SimNode waiting;
    private int hazardEpoch;
    private SimNode recovering;
    private int recoveryEpoch;
    private long recoveryOffset;
    /** Leaders in office at the wipe: node id to epoch. */
    private final Map<Integer, Integer> leadersAtWipe = new TreeMap<>();

    WipeRecovery(SimCluster cluster, CommittedPrefix committed) {
        this.cluster = cluster;
        this.committed = committed;
    }

    SimNode waiting() {
        return waiting;
    }

    boolean mayWipe(SimNode voter) {
        return waiting == null && !stillRecovering() && enoughHoldersWithout(voter);
    }

    /** Call just before wiping {@code voter}: records what its return must wait for. */
    void beforeWipe(SimNode voter) {
        int ownEpoch = epochOf(voter);
        int othersEpoch = 0;
        leadersAtWipe.clear();
        for (SimNode other : cluster.voters()) {
            if (other != voter) {
                othersEpoch = Math.max(othersEpoch, epochOf(other));
            }
            if (other.isRunning() && other.status().isLeader()) {
                leadersAtWipe.put(other.nodeId(), other.status().epoch());
            }
        }
        hazardEpoch = Math.min(ownEpoch, othersEpoch);
    }

    void onWiped(SimNode voter) {
        waiting = voter;
    }

    /** Whether the waiting voter may start now; a leader blocking it is returned through {@code blocker}. */
    boolean mayRejoin(SimNode[] blocker) {
        for (SimNode voter : cluster.voters()) {
            if (voter == waiting) {
                continue;
            }
            if (!voter.isRunning()) {
                if (voter.disk().durableEpoch() < hazardEpoch) {
                    return false;
                }
                continue;
            }
            RaftStatus status = voter.status();
            if (status.epoch() < hazardEpoch
                    || (status.epoch() == hazardEpoch && status.role() == RoleName.CANDIDATE)) {
                return false;
            }
            Integer epochAtWipe = leadersAtWipe.get(voter.nodeId());
            if (status.isLeader() && epochAtWipe != null && epochAtWipe == status.epoch()) {
                blocker[0] = voter;
                return false;
            }
        }
        return enoughHoldersWithout(waiting);
    }

    void onRejoined() {
        recovering = waiting;
        recoveryEpoch = 0;
        for (SimNode other : cluster.voters()) {
            if (other != waiting) {
                recoveryEpoch = Math.max(recoveryEpoch, epochOf(other));
            }
        }
        recoveryOffset = committed.committedEndOffset();
        waiting = null;
    }

    /** Whether the last voter to return still lacks the epoch or the committed prefix it returned to. */
    private boolean stillRecovering() {
        if (recovering == null) {
            return false;
        }
        boolean epochKnown = recovering.disk().durableEpoch() >= recoveryEpoch;
        boolean dataHeld = recoveryOffset == 0
                || recovering.disk().durablyStores(recoveryOffset - 1, committed.committedEpochAt(recoveryOffset - 1));
        if (epochKnown && dataHeld) {
            recovering = null;
            return false;
        }
        return true;
    }

    /**
     * Whether the voters other than {@code excluded} that durably hold the committed prefix
     * are enough that voters lacking it cannot form a majority.
     */
    private boolean enoughHoldersWithout(SimNode excluded) {
        long end = committed.committedEndOffset();
        if (end == 0) {
            return true;
        }
        int epoch = committed.committedEpochAt(end - 1);
        int holders = 0;
        for (SimNode voter : cluster.voters()) {
            if (voter != excluded && voter.disk().durablyStores(end - 1, epoch)) {
                holders++;
            }
        }
        return holders >= cluster.voters().size() - cluster.majority() + 1;
    }

    private static int epochOf(SimNode voter) {
        return voter.isRunning() ? voter.status().epoch() : voter.disk().durableEpoch();
    }
}
