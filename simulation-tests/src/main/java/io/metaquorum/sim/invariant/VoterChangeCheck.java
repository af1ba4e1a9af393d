package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import java.util.List;

/**
 * One voter change at a time (KIP-853): a leader's log holds at most one VotersRecord beyond
 * what is committed. A second change appended before the first commits could move the voters
 * by two steps, and two majorities of the sets in force could then not overlap.
 */
public final class VoterChangeCheck {
    public static final String NAME = "single-voter-change";

    /**
     * @param pendingOffsets the offsets of the VotersRecords in leader {@code nodeId}'s log at
     *                       or above {@code committedEnd}
     */
    public void observe(int nodeId, int epoch, long committedEnd, List<Long> pendingOffsets) {
        if (pendingOffsets.size() > 1) {
            throw new CheckFailure(NAME, "leader " + nodeId + " of epoch " + epoch + " holds " + pendingOffsets.size()
                    + " uncommitted VotersRecords (at offsets " + pendingOffsets + ", committed below "
                    + committedEnd + "): a second voter change began before the first committed");
        }
    }
}
