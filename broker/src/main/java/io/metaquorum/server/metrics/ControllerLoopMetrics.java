package io.metaquorum.server.metrics;

import io.metaquorum.node.controller.ControllerOperation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * What the controller's event loop and its raft port record (docs/metrics.md): how long each
 * event waited in the loop's queues and how long it ran (Kafka's EventQueueTimeMs and
 * EventQueueProcessingTimeMs), and the records the controller handed to raft (append-records).
 * Recorded by the loop layer around the deterministic controller, never inside it; off, it
 * records nothing and wraps nothing.
 */
public final class ControllerLoopMetrics {
    private static final ControllerLoopMetrics OFF = new ControllerLoopMetrics(null, null, null);

    /** Null when off; the three are null together. */
    private final Timer queueTime;
    private final Timer processingTime;
    private final Counter appendedRecords;

    ControllerLoopMetrics(Timer queueTime, Timer processingTime, Counter appendedRecords) {
        this.queueTime = queueTime;
        this.processingTime = processingTime;
        this.appendedRecords = appendedRecords;
    }

    /** Records nothing. */
    public static ControllerLoopMetrics off() {
        return OFF;
    }

    /**
     * {@code operation}, queued now, timed when it runs: its wait until then and its run. One
     * small object per event (a request, or one of raft's reports), none per record; off, the
     * operation itself.
     */
    public ControllerOperation queued(ControllerOperation operation) {
        if (queueTime == null) {
            return operation;
        }
        long queuedNanos = System.nanoTime();
        return (controller, nowMs) -> {
            long startNanos = System.nanoTime();
            queueTime.record(startNanos - queuedNanos, TimeUnit.NANOSECONDS);
            try {
                operation.run(controller, nowMs);
            } finally {
                processingTime.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
        };
    }

    /** One atomic append of {@code records} records handed to raft. */
    public void onAppend(int records) {
        if (appendedRecords != null) {
            appendedRecords.increment(records);
        }
    }
}
