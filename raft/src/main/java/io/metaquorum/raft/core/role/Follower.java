package io.metaquorum.raft.core.role;

import io.metaquorum.raft.core.RoleName;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import java.io.ByteArrayOutputStream;

/**
 * Fetching from a known leader (voters and observers alike). A voter that has no
 * successful fetch for the fetch timeout, or whose connection to the leader breaks,
 * or whose leader resigned, starts a pre-vote.
 *
 * <p>Invariant: at most one Fetch or FetchSnapshot in flight ({@code inflightCorrelationId}).
 */
public final class Follower implements RaftRole {
    private final int epoch;
    private final int leaderId;
    private final int votedId;
    private long fetchDeadlineMs;
    private long nextFetchMs;
    private long inflightCorrelationId = -1;
    private boolean leaderUnreachable;
    private boolean leaderResigned;
    private boolean namedSuccessor;
    private OffsetAndEpoch snapshotInProgress;
    private ByteArrayOutputStream snapshotBytes;

    public Follower(int epoch, int leaderId, int votedId, long fetchDeadlineMs) {
        this.epoch = epoch;
        this.leaderId = leaderId;
        this.votedId = votedId;
        this.fetchDeadlineMs = fetchDeadlineMs;
    }

    @Override
    public int epoch() {
        return epoch;
    }

    @Override
    public RoleName name() {
        return RoleName.FOLLOWER;
    }

    @Override
    public int leaderId() {
        return leaderId;
    }

    @Override
    public ElectionState electionState() {
        return new ElectionState(epoch, leaderId, votedId);
    }

    public int votedId() {
        return votedId;
    }

    /** When a voter gives up on the leader and pre-votes. */
    public long fetchDeadlineMs() {
        return fetchDeadlineMs;
    }

    public void resetFetchDeadline(long deadlineMs) {
        this.fetchDeadlineMs = deadlineMs;
    }

    /** Earliest time to send the next fetch (after a failure, a retry backoff). */
    public long nextFetchMs() {
        return nextFetchMs;
    }

    public void delayNextFetch(long atMs) {
        this.nextFetchMs = atMs;
    }

    public boolean hasInflightRequest() {
        return inflightCorrelationId >= 0;
    }

    public long inflightCorrelationId() {
        return inflightCorrelationId;
    }

    public void markInflight(long correlationId) {
        this.inflightCorrelationId = correlationId;
    }

    public void clearInflight() {
        this.inflightCorrelationId = -1;
    }

    /** True once the transport reported the connection to the leader broken. */
    public boolean isLeaderUnreachable() {
        return leaderUnreachable;
    }

    public void markLeaderUnreachable(boolean unreachable) {
        this.leaderUnreachable = unreachable;
    }

    public void markLeaderResigned() {
        this.leaderResigned = true;
    }

    /** The resigning leader named this replica among its successors (EndQuorumEpoch). */
    public void markNamedSuccessor() {
        this.namedSuccessor = true;
    }

    /**
     * Whether this replica campaigns without a pre-vote when its turn comes: its leader
     * handed over, so there is no healthy leader a needless election could disrupt.
     */
    public boolean isNamedSuccessor() {
        return namedSuccessor;
    }

    /**
     * Whether this replica would support replacing the leader: it has not heard from it
     * within the fetch timeout, its connection to it is broken, or it resigned.
     */
    public boolean hasLostLeader(long nowMs) {
        return leaderUnreachable || leaderResigned || nowMs >= fetchDeadlineMs;
    }

    public OffsetAndEpoch snapshotInProgress() {
        return snapshotInProgress;
    }

    public ByteArrayOutputStream snapshotBytes() {
        return snapshotBytes;
    }

    public void startSnapshotDownload(OffsetAndEpoch id) {
        this.snapshotInProgress = id;
        this.snapshotBytes = new ByteArrayOutputStream();
    }

    public void finishSnapshotDownload() {
        this.snapshotInProgress = null;
        this.snapshotBytes = null;
    }
}
