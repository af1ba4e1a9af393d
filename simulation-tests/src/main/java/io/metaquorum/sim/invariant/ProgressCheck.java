package io.metaquorum.sim.invariant;

import io.metaquorum.raft.core.RaftStatus;
import java.util.Arrays;

/**
 * Epochs and high watermarks never go back on a node, across restarts too.
 *
 * <p>Epochs are durable, so a restart keeps them; only a wipe forgives a regression.
 *
 * <p>High watermarks are not durable: a restarted process reports the value it starts with
 * (0, or its snapshot's offset) until it learns the current one, so values up to that
 * starting value mean "not known yet". Within one incarnation the high watermark never
 * decreases; once a restarted node's high watermark moves past its starting value, it must
 * be at least the largest one the node had before, unless the node lost written data in
 * between (unsynced writes at a crash, or a wipe). A value of -1 is unknown.
 */
public final class ProgressCheck {
    private final int[] maxEpoch;
    private final long[] epochWipes;
    private final long[] incarnations;
    private final long[] dataLosses;
    private final long[] startingHighWatermark;
    /** The largest high watermark of the current incarnation. */
    private final long[] currentMax;
    /** The largest high watermark of earlier incarnations since the last data loss. */
    private final long[] priorMax;

    public ProgressCheck(int maxNodeId) {
        int size = maxNodeId + 1;
        maxEpoch = new int[size];
        epochWipes = new long[size];
        incarnations = new long[size];
        dataLosses = new long[size];
        startingHighWatermark = new long[size];
        currentMax = new long[size];
        priorMax = new long[size];
        Arrays.fill(currentMax, -1);
        Arrays.fill(priorMax, -1);
    }

    public void observe(RaftStatus status, long incarnation, long wipeCount, long dataLossCount) {
        int node = status.nodeId();
        if (wipeCount != epochWipes[node]) {
            epochWipes[node] = wipeCount;
            maxEpoch[node] = 0;
        }
        if (status.epoch() < maxEpoch[node]) {
            throw new CheckFailure("monotonic-epoch", "node " + node + " went back from epoch " + maxEpoch[node]
                    + " to " + status.epoch());
        }
        maxEpoch[node] = status.epoch();
        observeHighWatermark(node, status.highWatermark(), incarnation, dataLossCount);
    }

    private void observeHighWatermark(int node, long hw, long incarnation, long dataLossCount) {
        if (incarnation != incarnations[node]) {
            incarnations[node] = incarnation;
            priorMax[node] = Math.max(priorMax[node], currentMax[node]);
            currentMax[node] = -1;
            startingHighWatermark[node] = hw;
        }
        if (dataLossCount != dataLosses[node]) {
            dataLosses[node] = dataLossCount;
            priorMax[node] = -1;
        }
        if (hw < 0) {
            return;
        }
        if (hw < currentMax[node]) {
            throw new CheckFailure("monotonic-high-watermark", "node " + node + " went back from high watermark "
                    + currentMax[node] + " to " + hw + " within one process incarnation");
        }
        if (hw > startingHighWatermark[node] && hw < priorMax[node]) {
            throw new CheckFailure("monotonic-high-watermark", "node " + node + " restarted without losing data and"
                    + " learned high watermark " + hw + ", below the " + priorMax[node] + " it had before");
        }
        currentMax[node] = Math.max(currentMax[node], hw);
    }
}
