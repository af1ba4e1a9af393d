package io.metaquorum.raft.core.handler;

import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.UpdateVoterRequest;
import io.metaquorum.protocol.UpdateVoterResponse;
import io.metaquorum.protocol.VotersRecord;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.core.role.Follower;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A voter whose listener moved (same node id, same directory, another host or port) asks the
 * leader to put its new endpoints into the voter set (KIP-853 UpdateRaftVoter), so the other
 * voters reach it there without the voter being removed and added again. It asks while it
 * follows a known leader, is listed with its own directory id in a voter set kept in the log,
 * and the set's endpoints for it differ from {@link io.metaquorum.raft.RaftConfig#localListeners};
 * one request at a time, again after a backoff of half the fetch timeout when an answer or a
 * failure came back, until the set it has replicated shows the new endpoints.
 */
public final class LocalEndpointUpdater {
    private static final Logger LOG = LoggerFactory.getLogger(LocalEndpointUpdater.class);

    private final CoreContext ctx;
    /** The correlation id of the request in flight; -1 when none. */
    private long inflight = -1;
    /** No request before this time: the leader just answered, or the last one failed. */
    private long notBeforeMs;

    public LocalEndpointUpdater(CoreContext ctx) {
        this.ctx = ctx;
    }

    /** Sends the request when one is due; returns when to look again (absolute ms). */
    public long poll(long nowMs) {
        Optional<Follower> follower = followerToAsk();
        if (follower.isEmpty() || inflight >= 0) {
            // An answer, a failure or the request's expiry wakes the core for what comes next.
            return Long.MAX_VALUE;
        }
        if (nowMs < notBeforeMs) {
            return notBeforeMs;
        }
        Follower f = follower.get();
        UpdateVoterRequest.Builder request = UpdateVoterRequest.newBuilder().setClusterId(ctx.clusterId())
                .setCurrentLeaderEpoch(f.epoch()).setVoterId(ctx.localId())
                .setVoterDirectoryId(ctx.localKey().directoryId());
        for (VoterSet.Endpoint endpoint : ctx.config().localListeners()) {
            request.addListeners(VotersRecord.Endpoint.newBuilder().setName("CONTROLLER").setHost(endpoint.host())
                    .setPort(endpoint.port()));
        }
        LOG.info("[node {}] the voter set has this voter at {}, but it listens at {}: asking leader {} to update it",
                ctx.localId(), listedEndpoints(), ctx.config().localListeners(), f.leaderId());
        inflight = ctx.outbox().sendRequest(f.leaderId(), request.build(), f.epoch(), ctx.requestDeadline(nowMs));
        return Long.MAX_VALUE;
    }

    public void handleResponse(long correlationId, UpdateVoterResponse response, long nowMs) {
        if (correlationId != inflight) {
            return;
        }
        inflight = -1;
        // Even after NONE this replica may not have fetched the record yet: give it time.
        backOff(nowMs);
        if (response.getErrorCode() != ErrorCode.NONE) {
            LOG.info("[node {}] the leader refused to update this voter's endpoints: {} {}; retrying in {} ms",
                    ctx.localId(), response.getErrorCode(), response.getErrorMessage(), notBeforeMs - nowMs);
        }
    }

    public void handleFailure(long correlationId, long nowMs) {
        if (correlationId != inflight) {
            return;
        }
        inflight = -1;
        backOff(nowMs);
    }

    private void backOff(long nowMs) {
        notBeforeMs = nowMs + ctx.config().timeouts().fetchTimeoutMs() / 2;
    }

    /** The follower role while this voter should ask its leader for new endpoints; empty otherwise. */
    private Optional<Follower> followerToAsk() {
        List<VoterSet.Endpoint> listeners = ctx.config().localListeners();
        if (listeners.isEmpty() || ctx.isShuttingDown() || !ctx.voterHistory().logNamesVoters()
                || !(ctx.role() instanceof Follower f) || f.leaderId() < 0 || f.leaderId() == ctx.localId()) {
            return Optional.empty();
        }
        Optional<VoterSet.Voter> listed = ctx.voters().voter(ctx.localId());
        boolean ownEntry = listed.isPresent() && listed.get().key().equals(ctx.localKey())
                && !TopicIds.ZERO.equals(ctx.localKey().directoryId());
        return ownEntry && !listed.get().endpoints().equals(listeners) ? Optional.of(f) : Optional.empty();
    }

    private List<VoterSet.Endpoint> listedEndpoints() {
        return ctx.voters().voter(ctx.localId()).map(VoterSet.Voter::endpoints).orElse(List.of());
    }
}
