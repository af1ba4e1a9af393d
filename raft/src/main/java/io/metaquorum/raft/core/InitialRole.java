package io.metaquorum.raft.core;

import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.role.ElectionTimers;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.QuorumStateStore;

/**
 * The role a replica starts in, from its persisted election state. A replica that led
 * before the restart starts Resigned in that epoch, so it neither votes in it again nor
 * reuses (epoch, offset) pairs; one that knew a leader follows it; otherwise Unattached,
 * keeping any vote it cast.
 */
final class InitialRole {
    private InitialRole() {
    }

    static RaftRole from(RaftConfig config, VoterSet voters, QuorumStateStore store, ElectionTimers timers,
                         long nowMs) {
        ElectionState state = store.read().orElse(ElectionState.INITIAL);
        boolean voter = voters.isVoter(config.localKey());
        if (voter && state.leaderId() == config.localId()) {
            var others = voters.ids().stream().filter(id -> id != config.localId()).toList();
            return new Resigned(state.epoch(), config.localId(), others, nowMs + timers.electionTimeoutMs());
        }
        if (state.hasLeader() && state.leaderId() != config.localId() && voters.hasId(state.leaderId())) {
            return new Follower(state.epoch(), state.leaderId(), state.votedId(),
                    nowMs + config.timeouts().fetchTimeoutMs());
        }
        long deadline = voter ? nowMs + timers.electionTimeoutMs() : nowMs;
        return new Unattached(state.epoch(), voter ? state.votedId() : ElectionState.NONE, deadline);
    }
}
