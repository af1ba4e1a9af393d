package io.metaquorum.raft.core.handler;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.AddVoterResponse;
import io.metaquorum.protocol.ControlRecord;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.RemoveVoterResponse;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.quorum.ReplicaProgress;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.message.RaftRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AddVoter, RemoveVoter and UpdateVoter on the leader (KIP-853), one change at a time. A change is
 * accepted only when this replica leads and has committed an entry of its epoch, and no
 * VotersRecord is uncommitted; a new voter must be an observer with that directory id that
 * was caught up with this leader within a fetch timeout; a voter updating its endpoints must be
 * listed with that directory id and follow this very epoch. The leader then appends a
 * VotersRecord with the new set, which counts at once (committed or not), and answers when it
 * commits. While a state machine leads the epoch, that state machine appends the record in its
 * own order (see {@link io.metaquorum.raft.RaftListener#handleControlRecords}). A leader that
 * removed itself hands over once the record commits (its first successor catches up, then it
 * resigns), and stays out of elections from then on: it is an observer.
 *
 * <p>A change whose leader loses office before the commit is answered NOT_LEADER_OR_FOLLOWER,
 * and one that outlives its {@code timeout_ms} REQUEST_TIMED_OUT: in both cases the record
 * may still commit, which {@code DescribeQuorum} shows.
 */
public final class VoterChangeHandler {
    private static final Logger LOG = LoggerFactory.getLogger(VoterChangeHandler.class);

    private final CoreContext ctx;
    private final LeaderCoordinator leaders;
    private final ControlRecordOwner stateMachine;
    /** The change being made and not yet answered; null when none. */
    private Pending pending;
    /** A change handed to the state machine to append in its order, not appended yet; null when none. */
    private Unplaced unplaced;

    /**
     * Who appends raft's own control records while a state machine leads: it takes them
     * (true) when it counts its offsets ahead of raft, see
     * {@link io.metaquorum.raft.RaftListener#handleControlRecords}.
     */
    @FunctionalInterface
    public interface ControlRecordOwner {
        boolean takes(int epoch, List<ByteString> records);
    }

    /** What a change does to one voter; it names the answer's type and the log line. */
    private enum Kind {
        ADD("adding"), REMOVE("removing"), UPDATE("updating the endpoints of");

        private final String verb;

        Kind(String verb) {
            this.verb = verb;
        }

        Message answer(ErrorCode error, String message) {
            return switch (this) {
                case ADD -> AddVoterResponse.newBuilder().setErrorCode(error).setErrorMessage(message).build();
                case REMOVE -> RemoveVoterResponse.newBuilder().setErrorCode(error).setErrorMessage(message).build();
                case UPDATE -> UpdateVoterResponse.newBuilder().setErrorCode(error).setErrorMessage(message).build();
            };
        }
    }

    /**
     * A change for {@code request}, its VotersRecord at {@code offset} in {@code epoch} (-1
     * until appended), answered once it commits, the leader changes, or at {@code deadlineMs}.
     */
    private record Pending(RaftRequest request, Kind kind, int epoch, long offset, long deadlineMs) {
        Pending appendedAt(long at) {
            return new Pending(request, kind, epoch, at, deadlineMs);
        }

        Message answer(ErrorCode error, String message) {
            return kind.answer(error, message);
        }
    }

    /** The VotersRecord {@code records} of a change to {@code next}, waiting for the state machine. */
    private record Unplaced(int epoch, List<ByteString> records, String change, VoterSet next) {
    }

    public VoterChangeHandler(CoreContext ctx, LeaderCoordinator leaders, ControlRecordOwner stateMachine) {
        this.ctx = ctx;
        this.leaders = leaders;
        this.stateMachine = stateMachine;
    }

    /** Why a change is refused: the code and a message naming what to do. */
    private record Refusal(ErrorCode code, String message) {
    }

    public void handleAddVoter(RaftRequest request, AddVoterRequest add, long nowMs) {
        ReplicaKey voter = new ReplicaKey(add.getVoterId(), add.getVoterDirectoryId());
        Optional<Refusal> refusal = leaderRefusal(add.getClusterId()).or(this::changeRefusal)
                .or(() -> addRefusal(voter, nowMs));
        if (refusal.isPresent()) {
            refuse(request, Kind.ADD, refusal.get());
            return;
        }
        List<VoterSet.Voter> voters = new ArrayList<>(ctx.voters().voters());
        voters.add(new VoterSet.Voter(voter, endpoints(add.getListenersList())));
        append(request, Kind.ADD, voter, VoterSet.of(voters), add.getTimeoutMs(), nowMs);
    }

    public void handleRemoveVoter(RaftRequest request, RemoveVoterRequest remove, long nowMs) {
        ReplicaKey voter = new ReplicaKey(remove.getVoterId(), remove.getVoterDirectoryId());
        Optional<Refusal> refusal = leaderRefusal(remove.getClusterId()).or(this::changeRefusal)
                .or(() -> removeRefusal(voter));
        if (refusal.isPresent()) {
            refuse(request, Kind.REMOVE, refusal.get());
            return;
        }
        List<VoterSet.Voter> voters = new ArrayList<>(ctx.voters().voters());
        voters.removeIf(v -> v.key().id() == voter.id());
        append(request, Kind.REMOVE, voter, VoterSet.of(voters), 0, nowMs);
    }

    /**
     * A voter whose listener moved tells where it listens now (KIP-853 UpdateRaftVoter): the
     * same voters, with these endpoints for it. The voter sends this itself, in the epoch it
     * follows, so a request of another epoch is refused before anything else is looked at.
     */
    public void handleUpdateVoter(RaftRequest request, UpdateVoterRequest update, long nowMs) {
        ReplicaKey voter = new ReplicaKey(update.getVoterId(), update.getVoterDirectoryId());
        Optional<Refusal> refusal = leaderRefusal(update.getClusterId())
                .or(() -> epochRefusal(update.getCurrentLeaderEpoch())).or(this::changeRefusal)
                .or(() -> updateRefusal(voter, update));
        if (refusal.isPresent()) {
            refuse(request, Kind.UPDATE, refusal.get());
            return;
        }
        List<VoterSet.Voter> voters = new ArrayList<>(ctx.voters().voters());
        voters.replaceAll(v -> v.key().id() == voter.id()
                ? new VoterSet.Voter(v.key(), endpoints(update.getListenersList())) : v);
        append(request, Kind.UPDATE, voter, VoterSet.of(voters), 0, nowMs);
    }

    private static List<VoterSet.Endpoint> endpoints(List<VotersRecord.Endpoint> listeners) {
        return listeners.stream().map(e -> new VoterSet.Endpoint(e.getHost(), e.getPort())).toList();
    }

    private void refuse(RaftRequest request, Kind kind, Refusal refusal) {
        ctx.outbox().sendResponse(request, kind.answer(refusal.code(), refusal.message()));
    }

    /** Why this replica cannot take a change at all, in KIP-853's order: the cluster, then leadership. */
    private Optional<Refusal> leaderRefusal(String clusterId) {
        if (!clusterId.isEmpty() && !clusterId.equals(ctx.clusterId())) {
            return Optional.of(new Refusal(ErrorCode.INCONSISTENT_CLUSTER_ID, "this is cluster " + ctx.clusterId()
                    + ", not " + clusterId));
        }
        if (!(ctx.role() instanceof Leader) || ctx.isShuttingDown()) {
            int leaderId = ctx.currentLeaderId();
            return Optional.of(new Refusal(ErrorCode.NOT_LEADER_OR_FOLLOWER, "this replica does not lead"
                    + (leaderId >= 0 && leaderId != ctx.localId() ? "; node " + leaderId + " does" : "")));
        }
        return Optional.empty();
    }

    /**
     * A request naming the epoch it was sent in must meet that leader: an older one is fenced,
     * a newer one is from a leader this replica has not heard of (as Fetch and FetchSnapshot).
     */
    private Optional<Refusal> epochRefusal(int requestEpoch) {
        int epoch = ctx.role().epoch();
        if (requestEpoch < epoch) {
            return Optional.of(new Refusal(ErrorCode.FENCED_LEADER_EPOCH, "epoch " + requestEpoch
                    + " is over: this leader leads epoch " + epoch));
        }
        if (requestEpoch > epoch) {
            return Optional.of(new Refusal(ErrorCode.UNKNOWN_LEADER_EPOCH, "epoch " + requestEpoch
                    + " is ahead of this leader's epoch " + epoch));
        }
        return Optional.empty();
    }

    /**
     * Why no change may start now on this leader, checked in KIP-853's order: a voter set kept
     * in the log, an entry of this epoch committed, no change pending.
     */
    private Optional<Refusal> changeRefusal() {
        Leader leader = (Leader) ctx.role();
        if (!ctx.voterHistory().logNamesVoters()) {
            return Optional.of(new Refusal(ErrorCode.UNSUPPORTED_VERSION, "the voters are the static "
                    + "controller.quorum.voters (kraft.version 0), which no request changes: format the controllers "
                    + "with --initial-controllers to manage them"));
        }
        if (leader.highWatermark() < 0) {
            return Optional.of(new Refusal(ErrorCode.REQUEST_TIMED_OUT, "the leader has not committed an entry of "
                    + "epoch " + leader.epoch() + " yet; retry"));
        }
        if (pending != null || unplaced != null
                || ctx.voterHistory().lastChangeOffset() >= ctx.commits().highWatermark()) {
            return Optional.of(new Refusal(ErrorCode.REQUEST_TIMED_OUT, "another voter change is not committed yet; "
                    + "retry once it is"));
        }
        return Optional.empty();
    }

    /** A new voter: a node id not yet voting, fetching from this leader as an observer with that directory id, caught up. */
    private Optional<Refusal> addRefusal(ReplicaKey voter, long nowMs) {
        VoterSet voters = ctx.voters();
        if (voters.hasId(voter.id())) {
            return Optional.of(new Refusal(ErrorCode.DUPLICATE_VOTER, "node " + voter.id() + " is already a voter, "
                    + "with directory id " + TopicIds.toBase64(voters.directoryIdOf(voter.id()))
                    + (voters.isVoter(voter) ? "" : ": remove that voter first")));
        }
        Optional<ReplicaProgress> observer = ((Leader) ctx.role()).observer(voter);
        long fetchTimeoutMs = ctx.config().timeouts().fetchTimeoutMs();
        if (observer.isEmpty() || observer.get().lastCaughtUpMs() < 0
                || nowMs - observer.get().lastCaughtUpMs() > fetchTimeoutMs) {
            return Optional.of(new Refusal(ErrorCode.REQUEST_TIMED_OUT, "node " + voter.id() + " with directory id "
                    + TopicIds.toBase64(voter.directoryId()) + " has not caught up with the leader within "
                    + fetchTimeoutMs + " ms: start it so that it fetches as an observer, then retry"));
        }
        return Optional.empty();
    }

    /** A voter to remove: listed with that directory id, and not the last one. */
    private Optional<Refusal> removeRefusal(ReplicaKey voter) {
        Optional<Refusal> notFound = notAVoter(voter);
        if (notFound.isPresent()) {
            return notFound;
        }
        if (ctx.voters().size() == 1) {
            return Optional.of(new Refusal(ErrorCode.INVALID_REQUEST, "node " + voter.id()
                    + " is the only voter: a quorum needs one"));
        }
        return Optional.empty();
    }

    /** VOTER_NOT_FOUND unless the voter set lists {@code voter}'s node id with that very directory id. */
    private Optional<Refusal> notAVoter(ReplicaKey voter) {
        VoterSet voters = ctx.voters();
        if (!voters.hasId(voter.id()) || !voters.directoryIdOf(voter.id()).equals(voter.directoryId())) {
            return Optional.of(new Refusal(ErrorCode.VOTER_NOT_FOUND, "no voter is node " + voter.id()
                    + " with directory id " + TopicIds.toBase64(voter.directoryId()) + "; the voters are " + voters));
        }
        return Optional.empty();
    }

    /** A voter updating its endpoints: listed with that directory id, and naming at least one endpoint. */
    private Optional<Refusal> updateRefusal(ReplicaKey voter, UpdateVoterRequest update) {
        Optional<Refusal> notFound = notAVoter(voter);
        if (notFound.isPresent()) {
            return notFound;
        }
        if (update.getListenersCount() == 0) {
            return Optional.of(new Refusal(ErrorCode.INVALID_REQUEST, "node " + voter.id()
                    + " named no listener to be reached at"));
        }
        return Optional.empty();
    }

    /**
     * Makes the change: its VotersRecord goes into the log now, or, while a state machine leads
     * this epoch and takes raft's control records, once that state machine appends it
     * ({@link #place}), so the offsets it counted for its own appends hold.
     */
    private void append(RaftRequest request, Kind kind, ReplicaKey voter, VoterSet next, int timeoutMs,
                        long nowMs) {
        Leader leader = (Leader) ctx.role();
        List<ByteString> records = List.of(ControlRecord.newBuilder().setVoters(next.toRecord()).build()
                .toByteString());
        long waitMs = timeoutMs > 0 ? timeoutMs : ctx.config().timeouts().requestTimeoutMs();
        pending = new Pending(request, kind, leader.epoch(), -1, nowMs + waitMs);
        Unplaced change = new Unplaced(leader.epoch(), records, kind.verb + " voter " + voter, next);
        if (stateMachine.takes(leader.epoch(), records)) {
            unplaced = change;
            LOG.info("[node {}] {} in epoch {}: the state machine appends the VotersRecord in its order",
                    ctx.localId(), change.change(), leader.epoch());
        } else {
            appendNow(leader, change, nowMs);
        }
    }

    /**
     * The state machine appends the records {@link ControlRecordOwner#takes took}: refused
     * (NOT_LEADER) when {@code epoch} is no longer led here or nothing waits for them.
     */
    public AppendResult place(int epoch, List<ByteString> records, long nowMs) {
        if (unplaced == null || unplaced.epoch() != epoch || !(ctx.role() instanceof Leader leader)
                || leader.epoch() != epoch) {
            return AppendResult.refused(AppendResult.Status.NOT_LEADER, ctx.role().epoch());
        }
        Invariants.check(records.equals(unplaced.records()), "node %d: the state machine appended control records "
                + "raft did not hand it in epoch %d", ctx.localId(), epoch);
        Unplaced change = unplaced;
        unplaced = null;
        return AppendResult.accepted(appendNow(leader, change, nowMs), epoch);
    }

    private long appendNow(Leader leader, Unplaced change, long nowMs) {
        long offset = leaders.appendControl(leader, change.records(), nowMs);
        leader.updateVoters(ctx.voters());
        if (pending != null && pending.epoch() == change.epoch()) {
            pending = pending.appendedAt(offset);
        }
        LOG.info("[node {}] {} in epoch {}: the voters are now {} (VotersRecord at offset {})", ctx.localId(),
                change.change(), change.epoch(), change.next(), offset);
        return offset;
    }

    /** Answers the pending change when it committed, its leader changed or it timed out; returns the next deadline. */
    public long poll(long nowMs) {
        boolean leading = ctx.role() instanceof Leader;
        if (unplaced != null && (!leading || ctx.role().epoch() != unplaced.epoch())) {
            unplaced = null;
        }
        if (pending == null) {
            return leading ? resignIfRemoved(nowMs) : Long.MAX_VALUE;
        }
        Pending change = pending;
        if (!leading || ctx.role().epoch() != change.epoch()) {
            answer(change, ErrorCode.NOT_LEADER_OR_FOLLOWER, "leadership moved before the change committed; it may "
                    + "still commit (see DescribeQuorum)");
            return Long.MAX_VALUE;
        }
        if (change.offset() >= 0 && ctx.commits().highWatermark() > change.offset()) {
            answer(change, ErrorCode.NONE, "");
            LOG.info("[node {}] voter change committed: the voters are {}", ctx.localId(), ctx.voters());
            return resignIfRemoved(nowMs);
        }
        if (nowMs >= change.deadlineMs()) {
            answer(change, ErrorCode.REQUEST_TIMED_OUT, (change.offset() < 0 ? "the VotersRecord was not appended"
                    : "the VotersRecord at offset " + change.offset() + " did not commit")
                    + " in time; it may still commit (see DescribeQuorum)");
            return Long.MAX_VALUE;
        }
        return change.deadlineMs();
    }

    /**
     * A leader outside its voter set resigns once the change that removed it commits: the one
     * that made the change, or one elected to finish it ({@code VoterSetHistory#mayCampaign}).
     * As a graceful shutdown does, the first successor gets the whole log before the
     * resignation (a quarter election timeout at most), so no voter can refuse its campaign
     * for a shorter log and leave the quorum to its election timeouts.
     */
    private long resignIfRemoved(long nowMs) {
        if (ctx.isLocalVoter() || ctx.commits().highWatermark() <= ctx.voterHistory().lastChangeOffset()
                || ctx.role() instanceof Leader leader && leader.isHandingOver()) {
            return Long.MAX_VALUE;
        }
        LOG.info("[node {}] this leader is no longer a voter: handing over, then resigning", ctx.localId());
        leaders.beginHandover(nowMs);
        return nowMs;
    }

    private void answer(Pending change, ErrorCode error, String message) {
        pending = null;
        ctx.outbox().sendResponse(change.request(), change.answer(error, message));
    }
}
