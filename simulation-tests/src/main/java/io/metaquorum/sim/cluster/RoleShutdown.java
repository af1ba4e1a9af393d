package io.metaquorum.sim.cluster;

import io.metaquorum.raft.loop.DriverLoop;

/**
 * A graceful stop of a process that runs a role, in {@code NodeServer#shutdown}'s order: the
 * role's part first (a broker's controlled shutdown), waited for up to the timeout, and only
 * then raft's shutdown, under the same timeout. The stop request is taken when it arrives; the
 * role's part begins when the process next runs (a paused process handles its SIGTERM once
 * resumed), so the timeout counts from then.
 *
 * <p>Invariant: raft's shutdown is requested at most once, and never before the role's part began.
 */
final class RoleShutdown {
    private final NodeRole role;
    private final DriverLoop loop;
    private final long timeoutMs;
    private boolean requested;
    private boolean begun;
    private boolean raftRequested;
    private long deadlineMs;

    RoleShutdown(NodeRole role, DriverLoop loop, long timeoutMs) {
        this.role = role;
        this.loop = loop;
        this.timeoutMs = timeoutMs;
    }

    /** SIGTERM reached the process. */
    void request() {
        requested = true;
    }

    /**
     * Moves the stop on at local {@code nowMs} (the process runs, not paused): begins the role's
     * part once, then hands over to raft once the role is ready or the timeout passed. True
     * when raft's shutdown was requested just now: the loop needs a pass to begin it.
     */
    boolean advance(long nowMs) {
        if (!requested || raftRequested) {
            return false;
        }
        if (!begun) {
            begun = true;
            deadlineMs = nowMs + timeoutMs;
            role.beginShutdown(nowMs);
        }
        if (role.readyToStop(nowMs) || nowMs >= deadlineMs) {
            raftRequested = true;
            loop.requestShutdown(timeoutMs);
            return true;
        }
        return false;
    }

    /** When the process must run again for this stop (local ms): the role's deadline, else never. */
    long deadlineMs() {
        return begun && !raftRequested ? deadlineMs : Long.MAX_VALUE;
    }
}
