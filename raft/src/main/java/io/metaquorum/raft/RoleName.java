package io.metaquorum.raft;

/** The names of the roles, for status output and logs. */
public enum RoleName {
    UNATTACHED,
    PROSPECTIVE,
    CANDIDATE,
    LEADER,
    FOLLOWER,
    RESIGNED
}
