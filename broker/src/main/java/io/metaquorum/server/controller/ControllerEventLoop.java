package io.metaquorum.server.controller;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.controller.QuorumController;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quorum controller's own thread (DESIGN.md §5): the {@link QuorumController} is touched
 * only here, so a large CreateTopics never stalls the raft driver (fetches, elections). Fed
 * with what raft reports (never dropped; few and small), requests (a bounded queue: a full
 * one refuses, and the endpoint answers with a retriable error) and its own timers (the
 * controller's next deadline).
 *
 * <p>Raft's reports are run in the order raft made them, before any request queued after
 * them. A failure inside the controller is a bug: the node stops through the fault handler.
 */
public final class ControllerEventLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerEventLoop.class);
    /** Requests waiting for the controller thread at most. */
    public static final int REQUEST_QUEUE_MAX = 4096;
    /** Requests run between two looks at raft's reports and the timers. */
    private static final int REQUESTS_PER_TURN_MAX = 64;

    private final String logPrefix;
    private final QuorumController controller;
    private final Time time;
    private final FaultHandler faultHandler;
    private final ConcurrentLinkedQueue<ControllerOperation> raftEvents = new ConcurrentLinkedQueue<>();
    private final ArrayBlockingQueue<ControllerOperation> requests = new ArrayBlockingQueue<>(REQUEST_QUEUE_MAX);
    private final Semaphore wakeUp = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean active;

    public ControllerEventLoop(int nodeId, QuorumController controller, Time time, FaultHandler faultHandler) {
        this.logPrefix = "[node " + nodeId + "] ";
        this.controller = controller;
        this.time = time;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "controller-" + nodeId);
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Runs a raft report on the controller thread, after those before it. Never refused. */
    public void raftEvent(ControllerOperation event) {
        raftEvents.add(event);
        wakeUp.release();
    }

    /** Queues a request; false when the queue is full. */
    public boolean submit(ControllerOperation request) {
        if (!running || !requests.offer(request)) {
            return false;
        }
        wakeUp.release();
        return true;
    }

    /** Whether the controller was active after the last thing it ran. */
    public boolean isActive() {
        return active;
    }

    private void run() {
        try {
            long deadlineMs = time.milliseconds();
            while (running) {
                long waitMs = Math.max(0, deadlineMs - time.milliseconds());
                if (wakeUp.tryAcquire(Math.min(waitMs, 1_000), TimeUnit.MILLISECONDS)) {
                    wakeUp.drainPermits();
                }
                runRaftEvents();
                runRequests();
                deadlineMs = controller.poll(time.milliseconds());
                active = controller.isActive();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("{}controller failed; stopping the node", logPrefix, e);
            faultHandler.handleFault("controller failed: " + e, e);
        }
    }

    private void runRaftEvents() {
        ControllerOperation event;
        while ((event = raftEvents.poll()) != null) {
            event.run(controller, time.milliseconds());
            // After every event, not once the queue is drained: behind a backlog of commits the
            // new active controller would otherwise refuse requests (heartbeats too) as
            // NOT_CONTROLLER naming itself, until the brokers' sessions expired.
            active = controller.isActive();
        }
        active = controller.isActive();
    }

    private void runRequests() {
        for (int i = 0; i < REQUESTS_PER_TURN_MAX; i++) {
            ControllerOperation request = requests.poll();
            if (request == null) {
                return;
            }
            request.run(controller, time.milliseconds());
            runRaftEvents();
        }
        wakeUp.release();
    }

    @Override
    public void close() {
        running = false;
        wakeUp.release();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
