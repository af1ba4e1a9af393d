package io.metaquorum.raft.core;

import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.storage.ElectionState;

/**
 * The one caller of the listener's leadership method. {@link RaftCore} calls {@link #report}
 * at the end of every call that may change the role, so the state machine hears each change
 * once, after the core is consistent again; a state that lasts only within one call is not
 * reported.
 *
 * <p>Invariant: {@code reportedLeaderId} / {@code reportedEpoch} are what the listener was
 * last told (no leader in epoch 0 before the first report).
 */
final class LeadershipReporter {
    private final CoreContext ctx;
    private final RaftListener listener;
    private int reportedLeaderId = ElectionState.NONE;
    private int reportedEpoch;

    LeadershipReporter(CoreContext ctx, RaftListener listener) {
        this.ctx = ctx;
        this.listener = listener;
    }

    void report() {
        int leaderId = ctx.currentLeaderId();
        int epoch = ctx.role().epoch();
        if (leaderId != reportedLeaderId || epoch != reportedEpoch) {
            reportedLeaderId = leaderId;
            reportedEpoch = epoch;
            listener.handleLeaderChange(leaderId, epoch);
        }
    }
}
