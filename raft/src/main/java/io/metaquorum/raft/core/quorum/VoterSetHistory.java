package io.metaquorum.raft.core.quorum;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The active voter set (KIP-853): the latest VotersRecord in the log, committed or not,
 * else the one the latest snapshot holds, else the bootstrap set (the formatted initial
 * voters, or the static {@code controller.quorum.voters}). A truncation past a VotersRecord
 * brings back the set before it. A later AddVoter or RemoveVoter only appends a VotersRecord.
 *
 * <p>Invariant: {@code byOffset} holds exactly the VotersRecords of the log above its start,
 * keyed by their offset; {@code base} is the set in force at the log start when some
 * record or snapshot named one.
 */
public final class VoterSetHistory {
    private final VoterSet bootstrap;
    private final TreeMap<Long, VoterSet> byOffset = new TreeMap<>();
    private VoterSet base;

    public VoterSetHistory(VoterSet bootstrap) {
        this.bootstrap = bootstrap;
    }

    public VoterSet active() {
        Map.Entry<Long, VoterSet> last = byOffset.lastEntry();
        if (last != null) {
            return last.getValue();
        }
        return base != null ? base : bootstrap;
    }

    /** Whether the log or the snapshot names a voter set (else the bootstrap set is in force). */
    public boolean logNamesVoters() {
        return base != null || !byOffset.isEmpty();
    }

    /** The offset of the latest VotersRecord in the log, -1 when the log above its start holds none. */
    public long lastChangeOffset() {
        return byOffset.isEmpty() ? -1 : byOffset.lastKey();
    }

    /**
     * The set in force just below the latest VotersRecord: what that record replaces (the
     * active set itself when the log above its start holds none).
     */
    public VoterSet beforeLastChange() {
        Map.Entry<Long, VoterSet> last = byOffset.lastEntry();
        if (last == null) {
            return active();
        }
        Map.Entry<Long, VoterSet> before = byOffset.lowerEntry(last.getKey());
        if (before != null) {
            return before.getValue();
        }
        return base != null ? base : bootstrap;
    }

    /**
     * Whether {@code local} may run for leader with a log committed below {@code highWatermark}:
     * as a voter of the active set, or as a voter of the set the latest VotersRecord replaced
     * while that record is not known to be committed. A leader that removed itself and stopped
     * before the remaining voters fetched the record may be the only replica holding it; they
     * cannot win against its longer log, so it must be able to finish the change (as a leader
     * outside its own set, which resigns once the change commits).
     */
    public boolean mayCampaign(ReplicaKey local, long highWatermark) {
        return active().isVoter(local) || lastChangeOffset() >= highWatermark && beforeLastChange().isVoter(local);
    }

    /** A VotersRecord at {@code offset} was appended. */
    public void addAt(long offset, VoterSet voters) {
        byOffset.put(offset, voters);
    }

    /** The log lost every record at or above {@code offset}. */
    public void truncateTo(long offset) {
        byOffset.tailMap(offset, true).clear();
    }

    /**
     * The log now starts at {@code offset}, after a snapshot holding {@code snapshotVoters}
     * (absent from a snapshot written without them: the set in force there stays).
     * {@code logDropped}: the log below and above was replaced by the snapshot alone.
     */
    public void startAt(long offset, Optional<VoterSet> snapshotVoters, boolean logDropped) {
        Map.Entry<Long, VoterSet> inForce = byOffset.lowerEntry(offset);
        if (inForce != null) {
            base = inForce.getValue();
        }
        byOffset.headMap(offset, false).clear();
        if (logDropped) {
            byOffset.clear();
        }
        snapshotVoters.ifPresent(voters -> base = voters);
    }
}
