package io.metaquorum.server.controller;

import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.Time;
import io.metaquorum.node.controller.ControllerNode;
import io.metaquorum.node.controller.ControllerOperation;
import io.metaquorum.node.controller.ControllerQueues;
import io.metaquorum.server.metrics.ControllerLoopMetrics;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quorum controller's own thread (docs/architecture.md §5): the {@link ControllerNode}'s turns run
 * only here, so a large CreateTopics never stalls the raft driver (fetches, elections). Its
 * queues are concurrent: raft's reports come from the driver thread, requests from the
 * endpoints' threads, and each wakes the thread; between them it sleeps until the
 * controller's next deadline. A failure inside the controller is a bug: the node stops
 * through the fault handler. Each event is timed here, around the controller, when metrics
 * are on ({@link ControllerLoopMetrics}): its wait in the queue and its run.
 */
public final class ControllerEventLoop implements ControllerQueues, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerEventLoop.class);
    /** The longest sleep between two turns without a wake-up: bounds a missed deadline. */
    private static final long IDLE_WAIT_MS_MAX = 1_000;

    private final String logPrefix;
    private final Time time;
    private final FaultHandler faultHandler;
    private final ControllerLoopMetrics metrics;
    private final ConcurrentLinkedQueue<ControllerOperation> raftEvents = new ConcurrentLinkedQueue<>();
    private final ArrayBlockingQueue<ControllerOperation> requests = new ArrayBlockingQueue<>(REQUEST_QUEUE_MAX);
    private final Semaphore wakeUp = new Semaphore(0);
    private final Thread thread;
    private volatile ControllerNode node;
    private volatile boolean running = true;

    public ControllerEventLoop(int nodeId, Time time, FaultHandler faultHandler, ControllerLoopMetrics metrics) {
        this.logPrefix = "[node " + nodeId + "] ";
        this.metrics = metrics;
        this.time = time;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "controller-" + nodeId);
        this.thread.setDaemon(true);
    }

    /** Starts the thread that runs {@code controllerNode}'s turns (built over this loop's queues). */
    public void start(ControllerNode controllerNode) {
        this.node = controllerNode;
        thread.start();
    }

    @Override
    public void addRaftEvent(ControllerOperation event) {
        raftEvents.add(metrics.queued(event));
        wakeUp.release();
    }

    @Override
    public boolean offerRequest(ControllerOperation request) {
        if (!running || !requests.offer(metrics.queued(request))) {
            return false;
        }
        wakeUp.release();
        return true;
    }

    @Override
    public ControllerOperation pollRaftEvent() {
        return raftEvents.poll();
    }

    @Override
    public ControllerOperation pollRequest() {
        return requests.poll();
    }

    private void run() {
        try {
            long deadlineMs = time.milliseconds();
            while (running) {
                long waitMs = Math.max(0, deadlineMs - time.milliseconds());
                if (wakeUp.tryAcquire(Math.min(waitMs, IDLE_WAIT_MS_MAX), TimeUnit.MILLISECONDS)) {
                    wakeUp.drainPermits();
                }
                deadlineMs = node.runTurn();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("{}controller failed; stopping the node", logPrefix, e);
            faultHandler.handleFault("controller failed: " + e, e);
        }
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
