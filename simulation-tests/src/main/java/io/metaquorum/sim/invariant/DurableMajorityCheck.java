package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.raft.RaftStatus;
import java.util.Arrays;
import java.util.List;

/**
 * The high watermark is only reached by entries stored on a majority: whenever a leader
 * moves its high watermark forward, the record just below the new value must be durably on
 * a majority of voters' disks, with the same epoch. Durably means on the simulated disk,
 * not as the node's log reports it, so a log that acknowledges before it syncs is caught.
 *
 * <p>Only the move is judged: a high watermark carried into a later epoch, or kept while a
 * voter's disk is wiped, was reached earlier. A restarted process starts unjudged: if it is
 * leader on its first observation (a single voter elects itself at once), that high
 * watermark is judged too.
 */
public final class DurableMajorityCheck {
    /** Counts the voters whose disks durably hold the record at an offset with an epoch. */
    @FunctionalInterface
    public interface DurableHolders {
        int count(long offset, int epoch);
    }

    private final long[] judgedHighWatermark;
    private final long[] judgedIncarnation;

    public DurableMajorityCheck(int maxNodeId) {
        judgedHighWatermark = new long[maxNodeId + 1];
        judgedIncarnation = new long[maxNodeId + 1];
        Arrays.fill(judgedHighWatermark, -1);
    }

    /** Whether {@code status} shows a leader whose high watermark moved since last judged. */
    public boolean wouldCheck(RaftStatus status, long incarnation) {
        int node = status.nodeId();
        if (judgedIncarnation[node] != incarnation) {
            judgedIncarnation[node] = incarnation;
            judgedHighWatermark[node] = -1;
        }
        if (status.highWatermark() <= judgedHighWatermark[node]) {
            return false;
        }
        if (!status.isLeader()) {
            judgedHighWatermark[node] = status.highWatermark();
            return false;
        }
        return status.highWatermark() > 0;
    }

    /** A voter set the leader may have counted: who durably holds a record among its voters, and its majority. */
    public record Quorum(DurableHolders holders, int majority) {
    }

    /** {@code entryEpoch} is the epoch of the leader's record at {@code highWatermark - 1}. */
    public void observe(RaftStatus status, int entryEpoch, DurableHolders holders, int majority) {
        observe(status, entryEpoch, List.of(new Quorum(holders, majority)));
    }

    /**
     * As {@link #observe(RaftStatus, int, DurableHolders, int)}, for a leader whose voter set
     * changed during the event (KIP-853: a VotersRecord counts once appended): the move is
     * judged by each set it may have been made under, and one majority suffices. The failure
     * names the first.
     */
    public void observe(RaftStatus status, int entryEpoch, List<Quorum> quorums) {
        int node = status.nodeId();
        long hw = status.highWatermark();
        judgedHighWatermark[node] = hw;
        int firstCount = -1;
        for (Quorum quorum : quorums) {
            int count = quorum.holders().count(hw - 1, entryEpoch);
            if (count >= quorum.majority()) {
                return;
            }
            firstCount = firstCount < 0 ? count : firstCount;
        }
        throw new CheckFailure("high-watermark-on-majority", "leader " + node + " of epoch " + status.epoch()
                + " moved its high watermark to " + hw + " but offset " + (hw - 1) + " (epoch " + entryEpoch
                + ") is durable on only " + firstCount + " voters; a majority is " + quorums.get(0).majority());
    }
}
