package io.metaquorum.raft.core.context;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.ReplicaKey;
import io.metaquorum.raft.VoterSet;
import io.metaquorum.raft.core.quorum.VoterSetHistory;
import io.metaquorum.raft.core.role.Candidate;
import io.metaquorum.raft.core.role.Follower;
import io.metaquorum.raft.core.role.Leader;
import io.metaquorum.raft.core.role.Prospective;
import io.metaquorum.raft.core.role.RaftRole;
import io.metaquorum.raft.core.role.Resigned;
import io.metaquorum.raft.core.role.RoleTransitions;
import io.metaquorum.raft.core.role.Unattached;
import io.metaquorum.raft.storage.ElectionState;
import io.metaquorum.raft.storage.RaftLog;

/**
 * What the handlers share: configuration, the log, the active voter set, the role holder,
 * the outbox and the commit tracker, plus the rules every handler applies to a (leader, epoch) it hears of.
 * Driver-thread only.
 */
public final class CoreContext {
    private final RaftConfig config;
    private final RaftLog log;
    private final VoterSetHistory voters;
    private final RoleTransitions roles;
    private final Outbox outbox;
    private final CommitTracker commits;
    private boolean shuttingDown;

    public CoreContext(RaftConfig config, RaftLog log, VoterSetHistory voters, RoleTransitions roles, Outbox outbox,
                       CommitTracker commits) {
        this.config = config;
        this.log = log;
        this.voters = voters;
        this.roles = roles;
        this.outbox = outbox;
        this.commits = commits;
    }

    public RaftConfig config() {
        return config;
    }

    public int localId() {
        return config.localId();
    }

    public ReplicaKey localKey() {
        return config.localKey();
    }

    /** The active voter set: the latest VotersRecord in the log, else the bootstrap set. */
    public VoterSet voters() {
        return voters.active();
    }

    /** Whether this replica, by node id and directory id, is one of the active voters. */
    public boolean isLocalVoter() {
        return voters.active().isVoter(config.localKey());
    }

    /** Whether this replica may run for leader now ({@link VoterSetHistory#mayCampaign}). */
    public boolean mayCampaign() {
        return voters.mayCampaign(config.localKey(), commits.highWatermark());
    }

    public VoterSetHistory voterHistory() {
        return voters;
    }

    public String clusterId() {
        return config.clusterId();
    }

    public RaftLog log() {
        return log;
    }

    public RoleTransitions roles() {
        return roles;
    }

    public RaftRole role() {
        return roles.current();
    }

    public Outbox outbox() {
        return outbox;
    }

    public CommitTracker commits() {
        return commits;
    }

    public boolean isShuttingDown() {
        return shuttingDown;
    }

    public void markShuttingDown() {
        shuttingDown = true;
    }

    /** Whether a candidate whose log ends at (lastEpoch, lastOffset) is at least as up to date as ours. */
    public boolean isLogUpToDate(int lastEpoch, long lastOffset) {
        int ourEpoch = log.lastEpoch();
        return lastEpoch > ourEpoch || (lastEpoch == ourEpoch && lastOffset >= log.endOffset());
    }

    public long requestDeadline(long nowMs) {
        return nowMs + config.timeouts().requestTimeoutMs();
    }

    public void becomeFollower(int epoch, int leaderId, long nowMs) {
        roles.toFollower(epoch, leaderId, nowMs + config.timeouts().fetchTimeoutMs());
    }

    /**
     * Applies what a message says about the quorum: a higher epoch moves this replica to it
     * (following the named leader if there is one), and a leader named for the current epoch
     * is followed if this replica knew none. Returns true if the role changed.
     */
    public boolean observeLeader(int epoch, int leaderId, long nowMs) {
        RaftRole role = roles.current();
        boolean knownLeader = leaderId >= 0 && leaderId != config.localId();
        if (epoch > role.epoch()) {
            if (knownLeader) {
                becomeFollower(epoch, leaderId, nowMs);
            } else {
                roles.toUnattached(epoch, nowMs);
            }
            return true;
        }
        if (epoch < role.epoch() || !knownLeader) {
            return false;
        }
        Invariants.check(!(role instanceof Leader) && !(role instanceof Resigned),
                "node %d: leader of epoch %d hears of another leader %d in it", config.localId(), epoch, leaderId);
        Invariants.check(!(role instanceof Follower f) || f.leaderId() == leaderId,
                "node %d: two leaders in epoch %d: %d and %d", config.localId(), epoch, role.leaderId(), leaderId);
        if (role instanceof Unattached || role instanceof Prospective || role instanceof Candidate) {
            becomeFollower(epoch, leaderId, nowMs);
            return true;
        }
        return false;
    }

    public int currentLeaderId() {
        RaftRole role = roles.current();
        return role instanceof Resigned ? ElectionState.NONE : role.leaderId();
    }
}
