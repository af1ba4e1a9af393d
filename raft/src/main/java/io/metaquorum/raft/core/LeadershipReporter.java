package io.metaquorum.raft.core;

import io.metaquorum.raft.core.context.CoreContext;
import io.metaquorum.raft.LeaderAndEpoch;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.Prospective;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Resigned;

/**
 * The one caller of the listener's leadership methods (the contract is on
 * {@link RaftListener}). {@link RaftCore} calls {@link #report} at the end of every call that
 * may change the role or the applied offset, so the state machine hears each change once,
 * after the core is consistent again; a state that lasts only within one call is not
 * reported.
 *
 * <p>A leader is reported as leading once the state machine has applied its leader-change
 * record (at {@code epochStartOffset}): before that, records of earlier epochs may still be
 * uncommitted, and a controller deciding on an image without them could, say, create a
 * topic twice (Kafka's KafkaRaftClient waits the same way).
 *
 * <p>Invariants: {@code known} is what {@code handleLeaderChange} last said
 * ({@code noLeader(0)} before the first report); {@code ledEpoch} is -1 or the epoch of the
 * last {@code handleBecomeLeader}, whose {@code handleResign} has not been reported yet.
 */
final class LeadershipReporter {
    private final CoreContext ctx;
    private final RaftListener listener;
    private LeaderAndEpoch known = LeaderAndEpoch.noLeader(0);
    private int ledEpoch = -1;

    LeadershipReporter(CoreContext ctx, RaftListener listener) {
        this.ctx = ctx;
        this.listener = listener;
    }

    void report() {
        RaftRole role = ctx.role();
        if (ledEpoch >= 0 && !(role instanceof Leader && role.epoch() == ledEpoch)) {
            int resigned = ledEpoch;
            ledEpoch = -1;
            listener.handleResign(resigned);
        }
        int leaderId = knownLeaderId(role);
        if (leaderId != known.leaderId() || role.epoch() != known.epoch()) {
            known = new LeaderAndEpoch(leaderId, role.epoch());
            listener.handleLeaderChange(known);
        }
        if (role instanceof Leader leader && ledEpoch != leader.epoch()
                && ctx.commits().appliedOffset() > leader.epochStartOffset()) {
            ledEpoch = leader.epoch();
            listener.handleBecomeLeader(leader.epoch(), leader.epochStartOffset());
        }
    }

    /** Whether the state machine was told it leads {@code epoch} and not yet that it resigned. */
    boolean reportedLeading(int epoch) {
        return ledEpoch >= 0 && ledEpoch == epoch;
    }

    /**
     * The leader of the role's epoch as the state machine should know it. A pre-vote changes
     * nothing about who leads the epoch (only a higher epoch can unseat its leader, KIP-996),
     * so a follower that pre-votes still names its leader: a flaky link does not make the
     * state machine see the leader vanish and come back. A resigned leader names none.
     */
    private static int knownLeaderId(RaftRole role) {
        if (role instanceof Prospective prospective) {
            return prospective.lastLeaderId();
        }
        return role instanceof Resigned ? LeaderAndEpoch.NO_LEADER : role.leaderId();
    }
}
