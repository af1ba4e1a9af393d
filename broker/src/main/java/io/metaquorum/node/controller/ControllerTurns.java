package io.metaquorum.node.controller;

import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.controller.QuorumController;

/**
 * How the quorum controller's single thread takes its work (docs/architecture.md §5), whoever gives it
 * the thread: raft's reports first, in raft's order; then at most {@link #REQUESTS_PER_TURN_MAX}
 * requests, raft's reports run again after each one; then the controller's own timers. Time is
 * read from the given clock before every step, so a long turn does not run on a stale time.
 *
 * <p>Whether the controller is active is published after every step, for the endpoints on other
 * threads: behind a backlog of commits a new active controller would otherwise refuse requests
 * (heartbeats too) as NOT_CONTROLLER naming itself until the brokers' sessions expired.
 */
public final class ControllerTurns {
    /** Requests run between two looks at raft's reports and the timers. */
    public static final int REQUESTS_PER_TURN_MAX = 64;

    private final QuorumController controller;
    private final ControllerQueues queues;
    private final Time time;
    private volatile boolean active;

    public ControllerTurns(QuorumController controller, ControllerQueues queues, Time time) {
        this.controller = controller;
        this.queues = queues;
        this.time = time;
    }

    /** Whether the controller was active after the last step it ran. */
    public boolean isActive() {
        return active;
    }

    /**
     * One turn; returns when the controller next needs to run: its next timer, or now when
     * requests were left waiting (more than one turn takes).
     */
    public long runTurn() {
        runRaftEvents();
        boolean requestsLeft = runRequests();
        long deadlineMs = controller.poll(time.milliseconds());
        active = controller.isActive();
        return requestsLeft ? Math.min(deadlineMs, time.milliseconds()) : deadlineMs;
    }

    private void runRaftEvents() {
        ControllerOperation event;
        while ((event = queues.pollRaftEvent()) != null) {
            event.run(controller, time.milliseconds());
            active = controller.isActive();
        }
        active = controller.isActive();
    }

    /** True when the turn's bound stopped it with requests still waiting. */
    private boolean runRequests() {
        for (int i = 0; i < REQUESTS_PER_TURN_MAX; i++) {
            ControllerOperation request = queues.pollRequest();
            if (request == null) {
                return false;
            }
            request.run(controller, time.milliseconds());
            runRaftEvents();
        }
        return true;
    }
}
