package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.RaftStatus;
import java.util.Arrays;

/**
 * Epochs and high watermarks never go back on a node, across restarts too.
 *
 * <p>Epochs are durable, so a restart keeps them; only a wipe forgives a regression (of the
 * epoch and of the high watermark: the node is a new replica then).
 *
 * <p>High watermarks are not durable: a restarted process reports the value it starts with
 * (0, or its snapshot's offset) until it learns the current one, so values up to that
 * starting value mean "not known yet", and so, for a node that lost records below its old
 * high watermark, does the offset of a snapshot it loads later. Within one incarnation the high watermark never
 * decreases. Once a restarted node's high watermark moves past its starting value, it must
 * be at least the largest one the node had before, or, if its log does not reach that far
 * (a crash lost its unsynced tail, or a wipe its whole disk), at least its log end: a node
 * learns {@code min(leader's high watermark, own log end)}, and every leader's high
 * watermark, once it has one, covers all that was ever committed. The log end counted is at
 * least the one the process recovered: those records lie below the old high watermark, so
 * they are committed, and truncating them is no excuse. So a node that lost data may report
 * less than before only by what it lost, and only until it has fetched it again.
 * A value is judged when it is learned (an unchanged one was judged then, against the log
 * end it had then). A value of -1 is unknown.
 */
public final class ProgressCheck {
    private final int[] maxEpoch;
    private final long[] epochWipes;
    private final long[] incarnations;
    private final long[] startingHighWatermark;
    /** The log end the current incarnation recovered. */
    private final long[] recoveredLogEnd;
    /** The largest high watermark of the current incarnation. */
    private final long[] currentMax;
    /** The largest high watermark of earlier incarnations. */
    private final long[] priorMax;

    public ProgressCheck(int maxNodeId) {
        int size = maxNodeId + 1;
        maxEpoch = new int[size];
        epochWipes = new long[size];
        incarnations = new long[size];
        startingHighWatermark = new long[size];
        recoveredLogEnd = new long[size];
        currentMax = new long[size];
        priorMax = new long[size];
        Arrays.fill(currentMax, -1);
        Arrays.fill(priorMax, -1);
    }

    public void observe(RaftStatus status, long incarnation, long wipeCount) {
        int node = status.nodeId();
        if (wipeCount != epochWipes[node]) {
            epochWipes[node] = wipeCount;
            maxEpoch[node] = 0;
            // A new disk is a new replica (a new directory id): knowing no epoch, it may first
            // follow a deposed leader whose high watermark is behind the one it had.
            priorMax[node] = -1;
            currentMax[node] = -1;
        }
        if (status.epoch() < maxEpoch[node]) {
            throw new CheckFailure("monotonic-epoch", "node " + node + " went back from epoch " + maxEpoch[node]
                    + " to " + status.epoch());
        }
        maxEpoch[node] = status.epoch();
        observeHighWatermark(node, status.highWatermark(), status.logStartOffset(), status.logEndOffset(), incarnation);
    }

    private void observeHighWatermark(int node, long hw, long logStartOffset, long logEndOffset, long incarnation) {
        if (incarnation != incarnations[node]) {
            incarnations[node] = incarnation;
            priorMax[node] = Math.max(priorMax[node], currentMax[node]);
            currentMax[node] = -1;
            startingHighWatermark[node] = hw;
            recoveredLogEnd[node] = logEndOffset;
        }
        if (hw < 0) {
            return;
        }
        if (hw < currentMax[node]) {
            throw new CheckFailure("monotonic-high-watermark", "node " + node + " went back from high watermark "
                    + currentMax[node] + " to " + hw + " within one process incarnation");
        }
        long floor = Math.min(priorMax[node], Math.max(logEndOffset, recoveredLogEnd[node]));
        // A loaded snapshot's offset says only "that much is committed": not yet known, for a node
        // that lost records below its old high watermark and is fetching them again (without such
        // a loss it fetches from beyond its old high watermark and never loads an older snapshot).
        boolean unknown = hw <= startingHighWatermark[node]
                || (recoveredLogEnd[node] < priorMax[node] && hw <= logStartOffset);
        if (hw > currentMax[node] && !unknown && hw < floor) {
            throw new CheckFailure("monotonic-high-watermark", "node " + node + " restarted and learned high"
                    + " watermark " + hw + ", below the " + priorMax[node] + " it had before although its log"
                    + " reaches " + logEndOffset + " (recovered: " + recoveredLogEnd[node] + ")");
        }
        currentMax[node] = Math.max(currentMax[node], hw);
    }
}
