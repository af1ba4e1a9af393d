package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.quorum.VoterSetHistory;
import java.util.List;
import java.util.Optional;

/**
 * The voter change a leader has appended but not committed, as DescribeQuorum reports it
 * (KIP-853): the latest VotersRecord at or above the high watermark, the set it installs and
 * the voters it adds and removes against the set before it. An operator whose
 * add-controller or remove-controller timed out, or whose leader moved, sees here whether the
 * change is still on its way.
 */
public final class PendingVoterChanges {
    private PendingVoterChanges() {
    }

    public static Optional<PendingVoterChange> of(VoterSetHistory history, long highWatermark) {
        long offset = history.lastChangeOffset();
        if (offset < 0 || offset < highWatermark) {
            return Optional.empty();
        }
        VoterSet next = history.active();
        VoterSet before = history.beforeLastChange();
        PendingVoterChange.Builder change = PendingVoterChange.newBuilder().setOffset(offset);
        next.voters().forEach(voter -> change.addVoters(voter.key().toMessage()));
        keysNotIn(next, before).forEach(key -> change.addAdded(key.toMessage()));
        keysNotIn(before, next).forEach(key -> change.addRemoved(key.toMessage()));
        return Optional.of(change.build());
    }

    /** The voters of {@code set} that {@code other} does not hold with the same directory id, by node id. */
    private static List<ReplicaKey> keysNotIn(VoterSet set, VoterSet other) {
        return set.voters().stream().map(VoterSet.Voter::key)
                .filter(key -> !other.hasId(key.id()) || !other.directoryIdOf(key.id()).equals(key.directoryId()))
                .toList();
    }
}
