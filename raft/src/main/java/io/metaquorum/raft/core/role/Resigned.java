package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;
import java.util.List;
import java.util.TreeSet;

/**
 * A leader that stepped down in its epoch (graceful shutdown, lost check-quorum, or a
 * restart after leading). It never votes in that epoch again nor reuses it; it tells the
 * voters through EndQuorumEpoch so the most caught-up one campaigns at once, and
 * pre-votes itself if nobody has won when its election timeout passes.
 */
public final class Resigned implements RaftRole {
    private final int epoch;
    private final int localId;
    private final List<Integer> preferredSuccessors;
    private final long electionDeadlineMs;
    private final TreeSet<Integer> endQuorumEpochSettled = new TreeSet<>();
    private final TreeSet<Integer> endQuorumEpochInflight = new TreeSet<>();

    public Resigned(int epoch, int localId, List<Integer> preferredSuccessors, long electionDeadlineMs) {
        this.epoch = epoch;
        this.localId = localId;
        this.preferredSuccessors = List.copyOf(preferredSuccessors);
        this.electionDeadlineMs = electionDeadlineMs;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.RESIGNED;
    }

    @Override
    public int leaderId() {
        return localId;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, localId, localId);
    }

    /** Voters sorted by descending fetch offset when it resigned: the first should win. */
    public List<Integer> preferredSuccessors() {
        return preferredSuccessors;
    }

    public long electionDeadlineMs() {
        return electionDeadlineMs;
    }

    public boolean needsEndQuorumEpoch(int voterId) {
        return !endQuorumEpochSettled.contains(voterId) && !endQuorumEpochInflight.contains(voterId);
    }

    public void markEndQuorumEpochSent(int voterId) {
        endQuorumEpochInflight.add(voterId);
    }

    /** A successor that could not be told will elect on its own timers; it is not retried. */
    public void markEndQuorumEpochFailed(int voterId) {
        endQuorumEpochInflight.remove(voterId);
        endQuorumEpochSettled.add(voterId);
    }

    public void markEndQuorumEpochAcked(int voterId) {
        endQuorumEpochInflight.remove(voterId);
        endQuorumEpochSettled.add(voterId);
    }
}
