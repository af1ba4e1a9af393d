package io.metaquorum.raft.core.role;

import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Grants and rejections from the voters in one (pre-)election. The local replica grants
 * itself if it is one of them (a leader that removed itself may have to campaign under the
 * set without it, and then needs a majority of that set's other voters). Invariant: a voter
 * is counted at most once, on one side, and only for the request this tally sent it last
 * (an answer to an earlier round's request is stale).
 */
public final class VoteTally {
    private final List<Integer> voterIds;
    private final int majority;
    private final TreeSet<Integer> granted = new TreeSet<>();
    private final TreeSet<Integer> rejected = new TreeSet<>();
    private final TreeMap<Integer, Long> inflight = new TreeMap<>();
    private final TreeMap<Integer, Long> retryAtMs = new TreeMap<>();
    /** Voters seen pre-voting themselves in this epoch before their answer to us arrived. */
    private final TreeSet<Integer> seenPreVoting = new TreeSet<>();

    public VoteTally(List<Integer> voterIds, int localId) {
        this.voterIds = voterIds;
        this.majority = voterIds.size() / 2 + 1;
        if (voterIds.contains(localId)) {
            granted.add(localId);
        }
    }

    public void recordGrant(int voterId) {
        if (voterIds.contains(voterId) && !rejected.contains(voterId)) {
            granted.add(voterId);
        }
    }

    public void recordRejection(int voterId) {
        if (voterIds.contains(voterId) && !granted.contains(voterId)) {
            rejected.add(voterId);
        }
    }

    /** Whether a request should go to {@code voterId} now: no answer, none in flight, no pending retry. */
    public boolean needsRequest(int voterId, long nowMs) {
        return !hasResponded(voterId) && !inflight.containsKey(voterId)
                && nowMs >= retryAtMs.getOrDefault(voterId, 0L);
    }

    public void markSent(int voterId, long correlationId) {
        inflight.put(voterId, correlationId);
    }

    /** Whether {@code correlationId} is the request this tally awaits from {@code voterId}. */
    public boolean awaits(int voterId, long correlationId) {
        Long expected = inflight.get(voterId);
        return expected != null && expected == correlationId;
    }

    public void markFailed(int voterId, long retryAt) {
        inflight.remove(voterId);
        retryAtMs.put(voterId, retryAt);
    }

    public void markAnswered(int voterId) {
        inflight.remove(voterId);
    }

    /** Forgets a voter's rejection so that it is asked again; false if it had not rejected. */
    public boolean forgetRejection(int voterId) {
        return rejected.remove(voterId);
    }

    /** {@code voterId} was seen pre-voting itself before it answered this tally's request. */
    public void noteSeenPreVoting(int voterId) {
        seenPreVoting.add(voterId);
    }

    /**
     * Whether a rejection now arriving from {@code voterId} predates its own pre-vote (seen
     * already); true once per such note, so a voter that refuses again is counted.
     */
    public boolean takeSeenPreVoting(int voterId) {
        return seenPreVoting.remove(voterId);
    }

    /** The earliest pending retry, or Long.MAX_VALUE. */
    public long nextRetryMs() {
        long next = Long.MAX_VALUE;
        for (var entry : retryAtMs.entrySet()) {
            if (!hasResponded(entry.getKey()) && !inflight.containsKey(entry.getKey())) {
                next = Math.min(next, entry.getValue());
            }
        }
        return next;
    }

    public boolean hasResponded(int voterId) {
        return granted.contains(voterId) || rejected.contains(voterId);
    }

    public boolean isWon() {
        return granted.size() >= majority;
    }

    /** True once a majority can no longer be reached. */
    public boolean isLost() {
        return voterIds.size() - rejected.size() < majority;
    }

    public List<Integer> grantingVoters() {
        return List.copyOf(granted);
    }
}
