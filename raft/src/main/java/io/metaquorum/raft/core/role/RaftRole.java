package io.metaquorum.raft.core.role;

import io.metaquorum.raft.RoleName;
import io.metaquorum.raft.storage.ElectionState;

/**
 * One Raft role in one epoch. Roles hold the state that lives only as long as the role
 * (timers, tallies, follower progress); the role itself changes only through
 * {@link RoleTransitions}.
 */
public sealed interface RaftRole permits Unattached, Prospective, Candidate, Leader, Follower, Resigned {
    int epoch();

    RoleName name();

    /** The leader of {@link #epoch()} as this replica knows it, or -1. */
    int leaderId();

    /** What must be durable before this role is entered. */
    ElectionState electionState();
}
