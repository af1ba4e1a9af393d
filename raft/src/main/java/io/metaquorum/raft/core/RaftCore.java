package io.metaquorum.raft.core;

import io.metaquorum.raft.core.handler.PendingVoterChanges;
import io.metaquorum.raft.core.context.CommitTracker;
import io.metaquorum.raft.core.context.Outbox;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.AppendResult;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.protocol.AddVoterRequest;
import io.metaquorum.protocol.BeginQuorumEpochRequest;
import io.metaquorum.protocol.BeginQuorumEpochResponse;
import io.metaquorum.protocol.DescribeQuorumRequest;
import io.metaquorum.protocol.EndQuorumEpochRequest;
import io.metaquorum.protocol.EndQuorumEpochResponse;
import io.metaquorum.protocol.FetchRequest;
import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.protocol.FetchResponse;
import io.metaquorum.protocol.FetchSnapshotRequest;
import io.metaquorum.protocol.FetchSnapshotResponse;
import io.metaquorum.protocol.RemoveVoterRequest;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.handler.DescribeQuorumHandler;
import io.metaquorum.raft.core.handler.ElectionCoordinator;
import io.metaquorum.raft.core.handler.FetchHandler;
import io.metaquorum.raft.core.handler.FollowerFetcher;
import io.metaquorum.raft.core.handler.LeaderCoordinator;
import io.metaquorum.raft.core.handler.LocalEndpointUpdater;
import io.metaquorum.raft.core.handler.QuorumEpochHandler;
import io.metaquorum.raft.core.handler.SnapshotServer;
import io.metaquorum.raft.core.handler.VoteHandler;
import io.metaquorum.raft.core.handler.VoterChangeHandler;
import io.metaquorum.raft.core.quorum.LocalVoterStatus;
import io.metaquorum.raft.core.quorum.VoterSetHistory;
import io.metaquorum.raft.core.quorum.VoterTrackingLog;
import io.metaquorum.raft.core.role.ElectionTimers;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.RoleTransitions;
import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.QuorumStateStore;
import io.metaquorum.raft.storage.RaftLog;
import java.util.Optional;
import java.util.List;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deterministic consensus core of one replica (KIP-595 / KIP-630 / KIP-996 / KIP-853 semantics).
 * It reads no clock, starts no thread and opens no socket: messages and the current time go
 * in, messages come out, and the log and election state are written through injected ports.
 * The election state is written (durably) before any answer that depends on it is queued.
 * The listener hears of a leadership change once, when the call that made it returns
 * ({@link LeadershipReporter}), never from inside a handler.
 *
 * <p>Driver contract, one thread; {@code io.metaquorum.raft.loop.DriverLoop} is its one
 * implementation, run by the production driver and the simulator alike:
 * <pre>
 *   for each inbound message: core.handle(msg, now)
 *   long deadline = core.poll(now);          // timers, append queued records, commit, build messages
 *   transport.send(core.takeOutbound())      // may go before the flush: nothing here claims durability
 *   if (log.hasUnflushed()) {                // one sync per drained batch (group commit)
 *       log.flush();
 *       deadline = core.poll(now);           // now counts the flushed records, may commit
 *       transport.send(core.takeOutbound());
 *   }
 *   wait until deadline or the next inbound message
 * </pre>
 * Followers report only flushed offsets and the leader counts only its own flushed end
 * toward the high watermark, so sending before the flush is safe.
 */
public final class RaftCore {
    private static final Logger LOG = LoggerFactory.getLogger(RaftCore.class);

    private final CoreContext ctx;
    private final VoteHandler votes;
    private final ElectionCoordinator elections;
    private final LeaderCoordinator leaders;
    private final FetchHandler fetches;
    private final FollowerFetcher fetcher;
    private final SnapshotServer snapshotServer;
    private final QuorumEpochHandler quorumEpochs;
    private final DescribeQuorumHandler describe;
    private final VoterChangeHandler voterChanges;
    private final LocalEndpointUpdater endpointUpdater;
    private final LeadershipReporter leadership;
    private int resignedEpochOnShutdown = -1;

    public RaftCore(RaftConfig config, RaftLog log, QuorumStateStore stateStore, RandomGenerator random,
                    RaftListener listener, long nowMs) {
        config.validate();
        VoterSetHistory voters = new VoterSetHistory(config.bootstrapVoters());
        LocalVoterStatus voterStatus = new LocalVoterStatus(config.localKey());
        VoterTrackingLog trackedLog = VoterTrackingLog.open(log, voters, voterStatus::onChange);
        voterStatus.onStart(voters.active(), config.kraftVersion());
        ElectionTimers timers = new ElectionTimers(config.timeouts(), random);
        RaftRole initial = InitialRole.from(config, voters.active(), stateStore, timers, nowMs);
        RoleTransitions roles = new RoleTransitions(config, voters, stateStore, timers, initial);
        this.ctx = new CoreContext(config, trackedLog, voters, roles, new Outbox(config.localId()),
                new CommitTracker(config.localId(), trackedLog, listener));
        this.fetches = new FetchHandler(ctx);
        this.leaders = new LeaderCoordinator(ctx, fetches);
        this.elections = new ElectionCoordinator(ctx, leaders);
        this.votes = new VoteHandler(ctx, elections);
        this.fetcher = new FollowerFetcher(ctx);
        this.snapshotServer = new SnapshotServer(ctx);
        this.quorumEpochs = new QuorumEpochHandler(ctx);
        this.describe = new DescribeQuorumHandler(ctx);
        this.leadership = new LeadershipReporter(ctx, listener);
        this.voterChanges = new VoterChangeHandler(ctx, leaders,
                (epoch, records) -> leadership.reportedLeading(epoch) && listener.handleControlRecords(epoch, records));
        this.endpointUpdater = new LocalEndpointUpdater(ctx);
        leadership.report();
    }

    /** Takes one inbound request, response or failure. */
    public void handle(RaftMessage message, long nowMs) {
        dispatch(message, nowMs);
        leadership.report();
    }

    private void dispatch(RaftMessage message, long nowMs) {
        if (message instanceof RaftRequest request) {
            handleRequest(request, nowMs);
        } else if (message instanceof RaftResponse response) {
            Outbox.Inflight sent = ctx.outbox().complete(response.correlationId(), response.sourceId());
            if (sent != null) {
                handleResponse(response, sent, nowMs);
            }
        } else if (message instanceof RequestFailure failure) {
            Outbox.Inflight sent = ctx.outbox().complete(failure.correlationId(), failure.peerId());
            if (sent != null) {
                handleFailure(failure, sent, nowMs);
            }
        }
    }

    private void handleRequest(RaftRequest request, long nowMs) {
        Message payload = request.payload();
        if (payload instanceof FetchRequest fetch) {
            fetches.handleFetchRequest(request, fetch, nowMs);
        } else if (payload instanceof VoteRequest vote) {
            votes.handleVoteRequest(request, vote, nowMs);
        } else if (payload instanceof BeginQuorumEpochRequest begin) {
            quorumEpochs.handleBeginQuorumEpochRequest(request, begin, nowMs);
        } else if (payload instanceof EndQuorumEpochRequest end) {
            quorumEpochs.handleEndQuorumEpochRequest(request, end, nowMs);
        } else if (payload instanceof FetchSnapshotRequest fetchSnapshot) {
            snapshotServer.handleFetchSnapshotRequest(request, fetchSnapshot, nowMs);
        } else if (payload instanceof DescribeQuorumRequest describeQuorum) {
            describe.handleDescribeQuorumRequest(request, describeQuorum, nowMs);
        } else if (payload instanceof AddVoterRequest addVoter) {
            voterChanges.handleAddVoter(request, addVoter, nowMs);
        } else if (payload instanceof RemoveVoterRequest removeVoter) {
            voterChanges.handleRemoveVoter(request, removeVoter, nowMs);
        } else if (payload instanceof UpdateVoterRequest updateVoter) {
            voterChanges.handleUpdateVoter(request, updateVoter, nowMs);
        } else {
            LOG.warn("[node {}] dropping a request of unknown type {}", ctx.localId(),
                    payload.getClass().getSimpleName());
        }
    }

    private void handleResponse(RaftResponse response, Outbox.Inflight sent, long nowMs) {
        Message payload = response.payload();
        if (payload instanceof FetchResponse fetch) {
            fetcher.handleFetchResponse(response.correlationId(), fetch, nowMs);
        } else if (payload instanceof VoteResponse vote) {
            votes.handleVoteResponse(response.sourceId(), response.correlationId(), sent, vote, nowMs);
        } else if (payload instanceof BeginQuorumEpochResponse begin) {
            leaders.handleBeginQuorumEpochResponse(response.sourceId(), sent, begin, nowMs);
        } else if (payload instanceof EndQuorumEpochResponse end) {
            quorumEpochs.handleEndQuorumEpochResponse(response.sourceId(), sent, end, nowMs);
        } else if (payload instanceof FetchSnapshotResponse fetchSnapshot) {
            fetcher.snapshots().handleFetchSnapshotResponse(response.correlationId(), fetchSnapshot, nowMs);
        } else if (payload instanceof UpdateVoterResponse updateVoter) {
            endpointUpdater.handleResponse(response.correlationId(), updateVoter, nowMs);
        }
    }

    private void handleFailure(RequestFailure failure, Outbox.Inflight sent, long nowMs) {
        Message payload = sent.payload();
        if (payload instanceof FetchRequest || payload instanceof FetchSnapshotRequest) {
            fetcher.handleFetchFailure(failure, nowMs);
        } else if (payload instanceof VoteRequest) {
            votes.handleVoteFailure(failure, sent, nowMs);
        } else if (payload instanceof BeginQuorumEpochRequest) {
            leaders.handleBeginQuorumEpochFailure(failure.peerId(), sent, nowMs);
        } else if (payload instanceof EndQuorumEpochRequest) {
            quorumEpochs.handleEndQuorumEpochFailure(failure.peerId(), sent);
        } else if (payload instanceof UpdateVoterRequest) {
            endpointUpdater.handleFailure(failure.correlationId(), nowMs);
        }
    }

    /** Runs expired timers, appends queued records, commits; returns the next deadline (absolute ms). */
    public long poll(long nowMs) {
        for (RequestFailure expired : ctx.outbox().expire(nowMs)) {
            dispatch(expired, nowMs);
        }
        fetches.answerFetchesParkedByFormerLeader();
        long next = elections.poll(nowMs);
        next = Math.min(next, leaders.poll(nowMs));
        if (ctx.role() instanceof Resigned resigned) {
            leaders.sendEndQuorumEpoch(resigned, nowMs);
        }
        next = Math.min(next, fetcher.poll(nowMs));
        next = Math.min(next, voterChanges.poll(nowMs));
        next = Math.min(next, endpointUpdater.poll(nowMs));
        if (ctx.commits().apply()) {
            next = nowMs;
        }
        leadership.report();
        return Math.max(nowMs, Math.min(next, ctx.outbox().nextDeadlineMs()));
    }

    /** The messages produced since the last call, in order. */
    public List<RaftMessage> takeOutbound() {
        return ctx.outbox().take();
    }

    /**
     * One atomic append in {@code epoch}, the epoch the caller decided in: all the records go
     * into one batch, or none is queued and the result says why (see {@link AppendResult}).
     */
    public AppendResult append(int epoch, List<ByteString> records, long nowMs) {
        return leaders.append(epoch, records, nowMs);
    }

    /**
     * The control records raft handed its state machine for {@code epoch}
     * ({@link io.metaquorum.raft.RaftListener#handleControlRecords}), appended now as one control
     * batch behind everything the state machine queued before.
     */
    public AppendResult appendControl(int epoch, List<ByteString> records, long nowMs) {
        AppendResult result = voterChanges.place(epoch, records, nowMs);
        leadership.report();
        return result;
    }

    /** Graceful resignation: EndQuorumEpoch to the voters, most caught up first. */
    public void resign(long nowMs) {
        leaders.resign(nowMs);
        leadership.report();
    }

    /**
     * Begins a graceful shutdown: a leader takes no more appends, lets its first successor catch
     * up to its log end (a quarter election timeout at most), resigns, and keeps answering until a
     * successor leads, so its votes and acknowledgements reach the election (the driver bounds
     * the wait).
     */
    public void beginShutdown(long nowMs) {
        ctx.markShuttingDown();
        if (ctx.role() instanceof Leader) {
            resignedEpochOnShutdown = ctx.role().epoch();
            leaders.beginHandover(nowMs);
        }
        leadership.report();
    }

    /**
     * True once a shutdown may proceed: at once for a replica that did not lead, else once this
     * replica follows a leader of a later epoch, or no other voter exists to take over.
     */
    public boolean isShutdownComplete(long nowMs) {
        if (resignedEpochOnShutdown < 0 || ctx.voters().size() == 1) {
            return true;
        }
        return ctx.role().epoch() > resignedEpochOnShutdown && ctx.role().leaderId() >= 0;
    }

    /**
     * Makes the frozen snapshot {@code frozen} (written off the driver thread, from
     * {@code RaftLog.createSnapshot}) the log start, deleting the log below it; the state
     * machine wrote it at an offset it had applied, at or below the high watermark. A
     * snapshot that is no longer ahead of the log start (a newer one was installed while it
     * was written) is discarded. Returns whether it was installed.
     */
    public boolean createSnapshot(SnapshotWriter frozen) {
        OffsetAndEpoch id = frozen.id();
        Invariants.check(frozen.isFrozen(), "node %d: snapshot %s is not complete", ctx.localId(), id);
        if (id.offset() <= ctx.log().startOffset()) {
            frozen.close();
            return false;
        }
        Invariants.check(id.offset() <= ctx.commits().appliedOffset(),
                "node %d: snapshot %s beyond the applied offset %d", ctx.localId(), id, ctx.commits().appliedOffset());
        Invariants.check(id.equals(snapshotIdAt(id.offset())), "node %d: snapshot %s does not match the log",
                ctx.localId(), id);
        ctx.log().installSnapshot(frozen);
        return true;
    }

    /** The epoch of the record just below {@code offset}, for naming a snapshot. */
    public OffsetAndEpoch snapshotIdAt(long offset) {
        if (offset <= ctx.log().startOffset()) {
            return ctx.log().latestSnapshot().orElse(OffsetAndEpoch.ZERO);
        }
        int epoch = ctx.log().read(offset - 1, 1).get(0).getEpoch();
        return new OffsetAndEpoch(offset, epoch);
    }

    /** The active voter set: the latest VotersRecord in the log, else the bootstrap set (KIP-853). */
    public VoterSet voters() {
        return ctx.voters();
    }

    /**
     * The latest VotersRecord of the log while it is not known committed here, with the voters
     * it adds and removes, as DescribeQuorum reports it (KIP-853).
     */
    public Optional<PendingVoterChange> pendingVoterChange() {
        return PendingVoterChanges.of(ctx.voterHistory(), ctx.commits().highWatermark());
    }

    public RaftStatus status() {
        RaftRole role = ctx.role();
        return new RaftStatus(ctx.localId(), role.name(), role.epoch(), ctx.currentLeaderId(),
                role.electionState().votedId(), ctx.commits().highWatermark(), ctx.log().startOffset(),
                ctx.log().endOffset(), ctx.log().flushedEndOffset(), ctx.commits().appliedOffset());
    }
}
