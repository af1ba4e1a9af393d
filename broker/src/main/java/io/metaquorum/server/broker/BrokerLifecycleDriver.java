package io.metaquorum.server.broker;

import io.grpc.StatusRuntimeException;
import io.metaquorum.broker.lifecycle.BrokerLifecycle;
import io.metaquorum.broker.lifecycle.BrokerState;
import io.metaquorum.broker.lifecycle.LifecycleCall;
import io.metaquorum.common.fault.FaultHandler;
import io.metaquorum.common.time.Time;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The thread that runs a {@link BrokerLifecycle}: hands its calls to {@link LifecycleRpc},
 * reports the answers, and sleeps until its next deadline or until the replayed metadata
 * offset moves ({@link #onMetadataAdvanced}). Everything the lifecycle decides happens on
 * this thread. A FATAL refusal goes to the fault handler, which stops the process.
 */
public final class BrokerLifecycleDriver implements AutoCloseable {
    private final BrokerLifecycle lifecycle;
    private final LifecycleRpc rpc;
    private final LongSupplier metadataOffset;
    private final Time time;
    private final FaultHandler faultHandler;
    private final Thread thread;
    private final Object monitor = new Object();
    /** Guarded by {@link #monitor}. */
    private boolean wakeUp;
    private boolean shutdownRequested;
    private boolean closed;
    private volatile BrokerState state = BrokerState.REGISTERING;
    private volatile long brokerEpoch = -1;

    BrokerLifecycleDriver(int nodeId, BrokerLifecycle lifecycle, LifecycleRpc rpc, LongSupplier metadataOffset,
                          Time time, FaultHandler faultHandler) {
        this.lifecycle = lifecycle;
        this.rpc = rpc;
        this.metadataOffset = metadataOffset;
        this.time = time;
        this.faultHandler = faultHandler;
        this.thread = new Thread(this::run, "broker-lifecycle-" + nodeId);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Safe from any thread. */
    public BrokerState state() {
        return state;
    }

    /** Safe from any thread; -1 while registering. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    /** A new image was published: a fenced broker may be caught up now. */
    void onMetadataAdvanced() {
        signal(false);
    }

    /**
     * Controlled shutdown: asks the controller to move this broker's leaderships away and
     * waits up to {@code timeoutMs} for it to say the broker may exit. True when it did.
     */
    boolean shutDownGracefully(long timeoutMs) throws InterruptedException {
        signal(true);
        long deadlineMs = time.milliseconds() + timeoutMs;
        synchronized (monitor) {
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

    private void signal(boolean shutdown) {
        synchronized (monitor) {
            wakeUp = true;
            shutdownRequested |= shutdown;
            monitor.notifyAll();
        }
    }

    private void run() {
        try {
            while (true) {
                boolean shutdown;
                synchronized (monitor) {
                    if (closed) {
                        return;
                    }
                    shutdown = shutdownRequested;
                    shutdownRequested = false;
                    wakeUp = false;
                }
                long nowMs = time.milliseconds();
                if (shutdown) {
                    lifecycle.beginControlledShutdown(nowMs);
                }
                Optional<LifecycleCall> call = lifecycle.poll(nowMs, metadataOffset.getAsLong());
                call.ifPresent(this::send);
                publish();
                if (lifecycle.fatalError().isPresent()) {
                    faultHandler.handleFault("broker lifecycle: " + lifecycle.fatalError().get(), null);
                    return;
                }
                if (call.isEmpty()) {
                    awaitDeadline(lifecycle.nextDeadlineMs(metadataOffset.getAsLong()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            faultHandler.handleFault("broker lifecycle failed", e);
        }
    }

    private void send(LifecycleCall call) {
        try {
            if (call instanceof LifecycleCall.Register register) {
                lifecycle.onRegistration(rpc.register(register.request()), time.milliseconds());
            } else if (call instanceof LifecycleCall.Heartbeat heartbeat) {
                lifecycle.onHeartbeat(rpc.heartbeat(heartbeat.request()), time.milliseconds());
            }
        } catch (StatusRuntimeException e) {
            lifecycle.onCallFailed(e.getStatus().getCode() + " from controller " + rpc.target(),
                    time.milliseconds());
        }
    }

    private void publish() {
        synchronized (monitor) {
            state = lifecycle.state();
            brokerEpoch = lifecycle.brokerEpoch();
            monitor.notifyAll();
        }
    }

    private void awaitDeadline(long deadlineMs) throws InterruptedException {
        synchronized (monitor) {
            while (!wakeUp && !shutdownRequested && !closed) {
                long leftMs = deadlineMs == Long.MAX_VALUE ? 0 : deadlineMs - time.milliseconds();
                if (deadlineMs != Long.MAX_VALUE && leftMs <= 0) {
                    return;
                }
                monitor.wait(Math.max(0, leftMs));
            }
        }
    }

    @Override
    public void close() {
        synchronized (monitor) {
            closed = true;
            monitor.notifyAll();
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        rpc.close();
    }
}
