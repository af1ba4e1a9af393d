package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;

/**
 * Fetching from a known leader (voters and observers alike). A voter that has no
 * successful fetch for the fetch timeout, or whose connection to the leader breaks,
 * or whose leader resigned, starts a pre-vote.
 *
 * <p>Only a successful fetch (or snapshot chunk) is hearing from the leader. A voter that
 * comes back here from a lost pre-vote has not heard from it: it still counts the leader
 * as lost ({@link #lostPreVotes} &gt; 0), so it grants its peers' pre-votes until a fetch
 * succeeds, and its deadline is when it pre-votes again, not a fresh fetch timeout. (Treating
 * the return as contact let two survivors of a frozen leader refuse each other forever.)
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
    private int unreachableFailures;
    private int lostPreVotes;
    private boolean leaderResigned;
    private boolean namedSuccessor;
    private OffsetAndEpoch snapshotInProgress;
    private SnapshotWriter snapshotDownload;

    public Follower(int epoch, int leaderId, int votedId, long fetchDeadlineMs) {
        this(epoch, leaderId, votedId, fetchDeadlineMs, 0);
    }

    /** A follower after {@code lostPreVotes} pre-votes lost in a row since it last heard from the leader. */
    public Follower(int epoch, int leaderId, int votedId, long fetchDeadlineMs, int lostPreVotes) {
        this.epoch = epoch;
        this.leaderId = leaderId;
        this.votedId = votedId;
        this.fetchDeadlineMs = fetchDeadlineMs;
        this.lostPreVotes = lostPreVotes;
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

    /** A fetch (or snapshot chunk) from the leader succeeded: the leader is heard from until {@code deadlineMs}. */
    public void onLeaderHeard(long deadlineMs) {
        this.fetchDeadlineMs = deadlineMs;
        this.leaderUnreachable = false;
        this.unreachableFailures = 0;
        this.lostPreVotes = 0;
    }

    /** Pre-votes lost in a row since this replica last heard from the leader. */
    public int lostPreVotes() {
        return lostPreVotes;
    }

    /**
     * Counts a failure to connect to the leader; true when it confirms the leader gone: the
     * second in a row, the first retry after a broken connection also failing. One reset alone
     * (a healthy leader whose connections all dropped at once) is answered by reconnecting, not
     * by an election. A replica that already lost a pre-vote to this leader waits its turn.
     */
    public boolean confirmsLeaderUnreachable() {
        unreachableFailures++;
        return unreachableFailures >= 2 && !leaderUnreachable && lostPreVotes == 0;
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

    /** Whether the last failure to reach the leader was the first in a row. */
    public boolean isFirstUnreachableFailure() {
        return unreachableFailures == 1;
    }

    /** True once the transport reported the connection to the leader broken, twice in a row. */
    public boolean isLeaderUnreachable() {
        return leaderUnreachable;
    }

    public void markLeaderUnreachable() {
        this.leaderUnreachable = true;
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
     * within the fetch timeout (or since a lost pre-vote), its connection to it is broken,
     * or it resigned.
     */
    public boolean hasLostLeader(long nowMs) {
        return leaderUnreachable || leaderResigned || lostPreVotes > 0 || nowMs >= fetchDeadlineMs;
    }

    public OffsetAndEpoch snapshotInProgress() {
        return snapshotInProgress;
    }

    /** Where the chunks of {@link #snapshotInProgress()} go; null when none is downloading. */
    public SnapshotWriter snapshotDownload() {
        return snapshotDownload;
    }

    /** Starts downloading snapshot {@code id} into {@code writer} (a temporary file or memory). */
    public void startSnapshotDownload(OffsetAndEpoch id, SnapshotWriter writer) {
        finishSnapshotDownload();
        this.snapshotInProgress = id;
        this.snapshotDownload = writer;
    }

    /** Ends the download; what it wrote and did not install is discarded. */
    public void finishSnapshotDownload() {
        if (snapshotDownload != null) {
            snapshotDownload.close();
        }
        this.snapshotInProgress = null;
        this.snapshotDownload = null;
    }
}
