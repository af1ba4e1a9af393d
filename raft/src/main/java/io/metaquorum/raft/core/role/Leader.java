package io.metaquorum.raft.core.role;

import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.quorum.ReplicaProgress;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.storage.ElectionState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Leading {@code epoch}: takes appends, serves fetches (parking those with nothing new),
 * tracks every replica's progress and moves the high watermark. A replica counts as a voter
 * only by its node id and directory id (KIP-853): a reformatted voter fetches as an observer,
 * and its progress never counts toward the high watermark. Resigns when a majority
 * of voters has not fetched within the check-quorum timeout.
 *
 * <p>Invariants: {@code highWatermark} is -1 until an entry of this epoch is committed and
 * never decreases afterwards; {@code epochStartOffset} is the offset of this epoch's LeaderChangeRecord, the last record
 * of the epoch's first batch (which may also hold the initial voter set, KIP-853).
 */
public final class Leader implements RaftRole {
    /** Bound on tracked observers (brokers and tools); the least recently seen is dropped. */
    public static final int OBSERVERS_MAX = 4096;

    private final int epoch;
    private final int localId;
    private final long epochStartOffset;
    /** The active voter set: the one it was elected in, then each it appended (KIP-853). */
    private VoterSet voterSet;
    private final TreeMap<Integer, ReplicaProgress> voters = new TreeMap<>();
    private final LinkedHashMap<Integer, ReplicaProgress> observers = new LinkedHashMap<>();
    /** Voter id to when the epoch was last settled with it: its first acknowledgement, then each re-send. */
    private final TreeMap<Integer, Long> beginQuorumEpochSettledMs = new TreeMap<>();
    private final TreeMap<Integer, Long> beginQuorumEpochNextSendMs = new TreeMap<>();
    private final LinkedHashMap<Long, ParkedFetch> parkedFetches = new LinkedHashMap<>();
    private final AppendQueue appendQueue = new AppendQueue();
    private final long beginQuorumEpochResendMs;
    private long highWatermark = -1;
    private long checkQuorumDeadlineMs;
    private long handoverDeadlineMs = -1;

    public Leader(int epoch, int localId, long epochStartOffset, VoterSet voterSet, long checkQuorumDeadlineMs,
                  long beginQuorumEpochResendMs) {
        this.epoch = epoch;
        this.localId = localId;
        this.epochStartOffset = epochStartOffset;
        this.voterSet = voterSet;
        this.beginQuorumEpochResendMs = beginQuorumEpochResendMs;
        this.checkQuorumDeadlineMs = checkQuorumDeadlineMs;
        for (int voterId : voterSet.ids()) {
            voters.put(voterId, new ReplicaProgress(voterSet.voter(voterId).orElseThrow().key()));
            if (voterId != localId) {
                beginQuorumEpochNextSendMs.put(voterId, 0L);
            }
        }
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.LEADER;
    }

    @Override
    public int leaderId() {
        return localId;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, localId, localId);
    }

    public long epochStartOffset() {
        return epochStartOffset;
    }

    public long highWatermark() {
        return highWatermark;
    }

    public void setHighWatermark(long offset) {
        this.highWatermark = offset;
    }

    public AppendQueue appendQueue() {
        return appendQueue;
    }

    /** The active voter set: the one this leader was elected in, or the last one it appended. */
    public VoterSet voterSet() {
        return voterSet;
    }

    /**
     * This leader appended a VotersRecord: {@code active} counts from now on, committed or not
     * (KIP-853). A voter that left keeps its progress as an observer, and an observer that
     * joined keeps its own as a voter; a new voter is sent BeginQuorumEpoch.
     */
    public void updateVoters(VoterSet active) {
        for (int voterId : List.copyOf(voters.keySet())) {
            ReplicaProgress progress = voters.get(voterId);
            if (!active.isVoter(progress.key())) {
                voters.remove(voterId);
                beginQuorumEpochSettledMs.remove(voterId);
                beginQuorumEpochNextSendMs.remove(voterId);
                // A replica already observing under this id (the same node, formatted again) keeps its own entry.
                observers.putIfAbsent(voterId, progress);
            }
        }
        for (VoterSet.Voter voter : active.voters()) {
            int voterId = voter.key().id();
            if (voters.containsKey(voterId)) {
                continue;
            }
            ReplicaProgress observer = observers.remove(voterId);
            voters.put(voterId, observer != null && observer.key().equals(voter.key()) ? observer
                    : new ReplicaProgress(voter.key()));
            if (voterId != localId) {
                beginQuorumEpochNextSendMs.put(voterId, 0L);
            }
        }
        this.voterSet = active;
    }

    /** The progress of observer {@code replica}, if it has fetched from this leader. */
    public Optional<ReplicaProgress> observer(ReplicaKey replica) {
        ReplicaProgress observer = observers.get(replica.id());
        return observer != null && observer.key().equals(replica) ? Optional.of(observer)
                : Optional.empty();
    }

    public boolean isVoter(ReplicaKey replica) {
        return voterSet.isVoter(replica);
    }

    /**
     * The progress of voter {@code voterId} under the key the voter set lists for it: the leader
     * itself, or a voter named by its id alone (a successor, a voter due a BeginQuorumEpoch).
     */
    public ReplicaProgress progress(int voterId) {
        return progress(voterSet.voter(voterId).map(VoterSet.Voter::key).orElse(ReplicaKey.of(voterId)));
    }

    /**
     * The progress of a voter or observer, creating an observer's entry on first contact. A
     * replica with a voter's id and another directory id is an observer, tracked apart.
     */
    public ReplicaProgress progress(ReplicaKey replica) {
        if (voterSet.isVoter(replica)) {
            return voters.get(replica.id());
        }
        int replicaId = replica.id();
        ReplicaProgress observer = observers.remove(replicaId);
        if (observer == null || !observer.key().equals(replica)) {
            observer = new ReplicaProgress(replica);
            if (observers.size() >= OBSERVERS_MAX) {
                observers.remove(observers.keySet().iterator().next());
            }
        }
        observers.put(replicaId, observer);
        return observer;
    }

    public List<ReplicaProgress> voterProgress() {
        return new ArrayList<>(voters.values());
    }

    public List<ReplicaProgress> observerProgress() {
        List<ReplicaProgress> sorted = new ArrayList<>(observers.values());
        sorted.sort(Comparator.comparingInt(ReplicaProgress::replicaId));
        return sorted;
    }

    public long[] voterEndOffsets() {
        return voters.values().stream().mapToLong(ReplicaProgress::endOffset).toArray();
    }

    /**
     * Voters other than the leader for EndQuorumEpoch: those that fetched within
     * {@code activeWindowMs} first, each group most caught up first (ties by id). A voter
     * that stopped fetching is probably down, and ranked ahead it would make the live ones
     * wait their turn (500 ms for the second in line) before anyone campaigns.
     */
    public List<Integer> successorsForHandoff(long nowMs, long activeWindowMs) {
        Comparator<ReplicaProgress> activeFirst = Comparator.comparing(
                progress -> progress.lastFetchMs() < 0 || nowMs - progress.lastFetchMs() > activeWindowMs);
        return voters.values().stream()
                .filter(progress -> progress.replicaId() != localId)
                .sorted(activeFirst.thenComparing(Comparator.comparingLong(ReplicaProgress::endOffset).reversed())
                        .thenComparingInt(ReplicaProgress::replicaId))
                .map(ReplicaProgress::replicaId)
                .toList();
    }

    /**
     * The latest time by which a majority of voters (the leader counts as now) has fetched;
     * check-quorum fails when this falls too far behind.
     */
    public long majorityLastFetchMs(long nowMs) {
        long[] times = voters.values().stream()
                .mapToLong(p -> p.replicaId() == localId ? nowMs : p.lastFetchMs())
                .sorted()
                .toArray();
        return times[times.length - voterSet.majority()];
    }

    /** A graceful shutdown began: resign once the successor has caught up, or at {@code deadlineMs}. */
    public void startHandover(long deadlineMs) {
        this.handoverDeadlineMs = deadlineMs;
    }

    public boolean isHandingOver() {
        return handoverDeadlineMs >= 0;
    }

    public long handoverDeadlineMs() {
        return handoverDeadlineMs;
    }

    public long checkQuorumDeadlineMs() {
        return checkQuorumDeadlineMs;
    }

    public void resetCheckQuorumDeadline(long deadlineMs) {
        this.checkQuorumDeadlineMs = deadlineMs;
    }

    /**
     * Whether to send BeginQuorumEpoch to {@code voterId} now: until it acknowledges the epoch
     * (by answering or fetching), whenever its retry is due; after that, again whenever it has
     * gone {@code beginQuorumEpochResendMs} without fetching or being sent the epoch (Kafka
     * re-sends every fetch timeout / 2). A voter stranded in a higher epoch by a candidacy
     * nobody heard of fetches from no one, and its pre-votes never carry its epoch to the
     * others; the re-sent request is answered FENCED_LEADER_EPOCH with that epoch, and this
     * leader steps down so the next election includes the stranded voter.
     */
    public boolean isBeginQuorumEpochDue(int voterId, long nowMs) {
        Long settled = beginQuorumEpochSettledMs.get(voterId);
        if (settled == null) {
            Long next = beginQuorumEpochNextSendMs.get(voterId);
            return next != null && nowMs >= next;
        }
        return nowMs >= resendDueMs(voterId, settled);
    }

    /**
     * Records a send, or a failed one: a voter that has not acknowledged the epoch is tried
     * again at {@code retryAtMs}, one that has counts as settled now.
     */
    public void scheduleBeginQuorumEpoch(int voterId, long retryAtMs, long nowMs) {
        if (!isCurrentVoter(voterId)) {
            return; // an answer or failure of a request sent before the voter was removed
        }
        if (beginQuorumEpochSettledMs.containsKey(voterId)) {
            beginQuorumEpochSettledMs.put(voterId, nowMs);
        } else {
            beginQuorumEpochNextSendMs.put(voterId, retryAtMs);
        }
    }

    public void markBeginQuorumEpochAcked(int voterId, long nowMs) {
        if (!isCurrentVoter(voterId)) {
            return;
        }
        beginQuorumEpochSettledMs.putIfAbsent(voterId, nowMs);
        beginQuorumEpochNextSendMs.remove(voterId);
    }

    /**
     * Whether {@code voterId} is another voter of the current set: only those have a
     * BeginQuorumEpoch schedule, which the leader's poll visits. A schedule
     * kept for a removed voter would never be served, and its deadline, once past, would make
     * every poll due at once (a busy loop).
     */
    private boolean isCurrentVoter(int voterId) {
        return voterId != localId && voters.containsKey(voterId);
    }

    /** The earliest pending BeginQuorumEpoch (re)send, or Long.MAX_VALUE. */
    public long nextBeginQuorumEpochMs() {
        long next = beginQuorumEpochNextSendMs.values().stream().mapToLong(Long::longValue).min()
                .orElse(Long.MAX_VALUE);
        for (Map.Entry<Integer, Long> settled : beginQuorumEpochSettledMs.entrySet()) {
            next = Math.min(next, resendDueMs(settled.getKey(), settled.getValue()));
        }
        return next;
    }

    private long resendDueMs(int voterId, long settledMs) {
        return Math.max(voters.get(voterId).lastFetchMs(), settledMs) + beginQuorumEpochResendMs;
    }

    public LinkedHashMap<Long, ParkedFetch> parkedFetches() {
        return parkedFetches;
    }

    /** A Fetch with nothing new to return, answered when data or the high watermark moves, or at its deadline. */
    public record ParkedFetch(RaftRequest request, long deadlineMs) {
    }
}
