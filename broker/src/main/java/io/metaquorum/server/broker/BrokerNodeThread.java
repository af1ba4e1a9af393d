package io.metaquorum.server.broker;

import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.node.BrokerNode;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.Time;
import io.metaquorum.metadata.image.ImageUpdate;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * The thread that runs a {@link BrokerNode}: the node is single-threaded, so everything that
 * reaches it from elsewhere is handed over here. Raft's driver thread publishes images into a
 * one-slot mailbox (only the newest image matters, with the changes of every image it merged:
 * {@link ImageUpdate#then}), gRPC callbacks arrive as tasks ({@link #execute});
 * a shutdown request is a flag. Each turn takes all of them, runs them on this thread, drives
 * the node and sleeps until its deadline or the next hand-over. A FATAL refusal goes to the
 * fault handler, which stops the process.
 */
final class BrokerNodeThread implements Executor, AutoCloseable {
    /** Tasks waiting for the thread; one lifecycle call is in flight at a time, so a few at most. */
    private static final int TASKS_MAX = 1_024;
    private static final long CLOSE_WAIT_MS = 5_000;

    /** Set once by {@link #start}, before the thread starts; used by the thread only. */
    private BrokerNode node;
    private final Time time;
    private final FaultHandler faultHandler;
    private final Thread thread;
    private final Object monitor = new Object();
    /** Guarded by {@link #monitor}. */
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    /**
     * The images not yet handed to the node, merged: the newest, with the changes since the
     * last one handed over; or null. Guarded by {@link #monitor}.
     */
    private ImageUpdate image;
    private boolean shutdownRequested;
    private boolean closed;
    private volatile BrokerState state = BrokerState.REGISTERING;
    private volatile long brokerEpoch = -1;

    /** The node's transport is given this object as the executor its answers arrive on, before {@link #start}. */
    BrokerNodeThread(int nodeId, Time time, FaultHandler faultHandler) {
        this.time = time;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "broker-node-" + nodeId);
        this.thread.setDaemon(true);
    }

    /** Starts running {@code brokerNode}; once. */
    void start(BrokerNode brokerNode) {
        this.node = brokerNode;
        thread.start();
    }

    /** Safe from any thread. */
    BrokerState state() {
        return state;
    }

    /** Safe from any thread; -1 while registering. */
    long brokerEpoch() {
        return brokerEpoch;
    }

    /** Runs {@code task} on the node's thread; safe from any thread, never blocks. */
    @Override
    public void execute(Runnable task) {
        synchronized (monitor) {
            if (closed) {
                return;
            }
            if (tasks.size() >= TASKS_MAX) {
                faultHandler.handleFault("broker node: more than " + TASKS_MAX + " tasks waiting", null);
                return;
            }
            tasks.add(task);
            monitor.notifyAll();
        }
    }

    /** A new image was published (raft's driver thread); never blocks. */
    void onImage(ImageUpdate published) {
        synchronized (monitor) {
            image = image == null ? published : image.then(published);
            monitor.notifyAll();
        }
    }

    /**
     * Controlled shutdown: asks the controller to move this broker's leaderships away and
     * waits up to {@code timeoutMs} for it to say the broker may exit. True when it did.
     */
    boolean shutDownGracefully(long timeoutMs) throws InterruptedException {
        long deadlineMs = time.milliseconds() + timeoutMs;
        synchronized (monitor) {
            shutdownRequested = true;
            monitor.notifyAll();
            while (state != BrokerState.SHUT_DOWN && !closed) {
                long leftMs = deadlineMs - time.milliseconds();
                if (leftMs <= 0) {
                    return false;
                }
                monitor.wait(leftMs);
            }
        }
        return state == BrokerState.SHUT_DOWN;
    }

    private void run() {
        try {
            long deadlineMs = Long.MIN_VALUE;
            while (awaitWork(deadlineMs)) {
                deadlineMs = turn();
                if (node.fatalError().isPresent()) {
                    faultHandler.handleFault("broker lifecycle: " + node.fatalError().get(), null);
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            faultHandler.handleFault("broker node failed", e);
        }
    }

    /** Hands over what arrived, drives the node and publishes its state; returns its next deadline. */
    private long turn() {
        ArrayDeque<Runnable> arrived;
        ImageUpdate published;
        boolean shutdown;
        synchronized (monitor) {
            arrived = new ArrayDeque<>(tasks);
            tasks.clear();
            published = image;
            image = null;
            shutdown = shutdownRequested;
            shutdownRequested = false;
        }
        if (published != null) {
            node.onImage(published);
        }
        arrived.forEach(Runnable::run);
        if (shutdown) {
            node.beginControlledShutdown(time.milliseconds());
        }
        long deadlineMs = node.drive(time.milliseconds());
        synchronized (monitor) {
            state = node.state();
            brokerEpoch = node.brokerEpoch();
            monitor.notifyAll();
        }
        return deadlineMs;
    }

    /** Waits until something was handed over or {@code deadlineMs} came; false once closed. */
    private boolean awaitWork(long deadlineMs) throws InterruptedException {
        synchronized (monitor) {
            while (!closed && tasks.isEmpty() && image == null && !shutdownRequested) {
                if (deadlineMs == Long.MAX_VALUE) {
                    monitor.wait();
                    continue;
                }
                long leftMs = deadlineMs == Long.MIN_VALUE ? 0 : deadlineMs - time.milliseconds();
                if (leftMs <= 0) {
                    return true;
                }
                monitor.wait(leftMs);
            }
            return !closed;
        }
    }

    @Override
    public void close() {
        synchronized (monitor) {
            closed = true;
            monitor.notifyAll();
        }
        try {
            thread.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
