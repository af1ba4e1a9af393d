package io.metaquorum.sim.invariant;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.cluster.SimNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Liveness after healing: every node expected up is running; exactly one leader, whose
 * epoch and id every running node knows; an append accepted after healing was acknowledged;
 * and every running voter and observer has the leader's log end, high watermark and applied
 * offset.
 */
public final class ConvergenceCheck {
    private ConvergenceCheck() {
    }

    /**
     * Why the cluster has not converged, or null if it has.
     *
     * @param expectedUp     nodes that must be running
     * @param latestAckedMs  acceptance time of the latest acknowledged append
     * @param healedAtMs     when healing began: an append accepted since must be acknowledged
     */
    public static String whyNotConverged(SimCluster cluster, Set<Integer> expectedUp, long latestAckedMs,
                                         long healedAtMs) {
        Supplier<String> why = notConverged(cluster, expectedUp, latestAckedMs, healedAtMs);
        return why == null ? null : why.get();
    }

    /**
     * The same, with the reason left unwritten until asked for: the liveness phase asks after
     * every event, and writes the reason only if the bound passes.
     */
    public static Supplier<String> notConverged(SimCluster cluster, Set<Integer> expectedUp, long latestAckedMs,
                                                long healedAtMs) {
        List<RaftStatus> running = new ArrayList<>();
        for (SimNode node : cluster.running()) {
            running.add(node.status());
        }
        return notConverged(running, expectedUp, latestAckedMs, healedAtMs);
    }

    /** The same, over the statuses of the running nodes (in node order). */
    public static String whyNotConverged(List<RaftStatus> running, Set<Integer> expectedUp, long latestAckedMs,
                                         long healedAtMs) {
        Supplier<String> why = notConverged(running, expectedUp, latestAckedMs, healedAtMs);
        return why == null ? null : why.get();
    }

    private static Supplier<String> notConverged(List<RaftStatus> running, Set<Integer> expectedUp,
                                                 long latestAckedMs, long healedAtMs) {
        for (int id : expectedUp) {
            if (!isRunning(running, id)) {
                return () -> "node " + id + " is not running";
            }
        }
        RaftStatus leader = null;
        for (RaftStatus status : running) {
            if (status.isLeader()) {
                if (leader != null) {
                    RaftStatus first = leader;
                    return () -> "two running leaders: " + first.nodeId() + " (epoch " + first.epoch() + ") and "
                            + status.nodeId() + " (epoch " + status.epoch() + ")";
                }
                leader = status;
            }
        }
        if (leader == null) {
            return () -> "no leader";
        }
        if (latestAckedMs < healedAtMs) {
            return () -> "no append accepted since healing has been acknowledged yet";
        }
        for (RaftStatus status : running) {
            Supplier<String> lag = lag(status, leader);
            if (lag != null) {
                return lag;
            }
        }
        return null;
    }

    private static boolean isRunning(List<RaftStatus> running, int id) {
        for (RaftStatus status : running) {
            if (status.nodeId() == id) {
                return true;
            }
        }
        return false;
    }

    private static Supplier<String> lag(RaftStatus status, RaftStatus leader) {
        if (status.epoch() != leader.epoch() || status.leaderId() != leader.nodeId()) {
            return () -> "node " + status.nodeId() + " is in epoch " + status.epoch() + " with leader "
                    + status.leaderId() + "; the leader is " + leader.nodeId() + " in epoch " + leader.epoch();
        }
        if (status.logEndOffset() != leader.logEndOffset() || status.highWatermark() != leader.highWatermark()
                || status.appliedOffset() != leader.highWatermark()) {
            return () -> "node " + status.nodeId() + " has log end " + status.logEndOffset() + ", high watermark "
                    + status.highWatermark() + ", applied " + status.appliedOffset() + "; the leader has "
                    + leader.logEndOffset() + ", " + leader.highWatermark();
        }
        return null;
    }
}
