package io.metaquorum.bench;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Cuts the commit latencies into one-second intervals, prints each as a
 * {@code PROGRESS} line (so a stall or a backlog left by the warm-up shows where it
 * happened), and sums the intervals after the warm-up into the measured histogram.
 *
 * <p>The intervals are closed on a reporter thread of their own, not on the load
 * generator's: computing percentiles and printing took long enough that the record due
 * meanwhile was appended late, once a second, and its latency counts from when it was due.
 * Synchronized: the reporter and the generator's final {@link #finish} share the state.
 */
final class LatencyIntervals {
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How often the reporter looks: a line comes at most this late after its second ends. */
    private static final long REPORTER_TICK_MS = 20;
    private static final long REPORTER_STOP_WAIT_MS = 5_000;

    private final CommitLatencyRecorder recorder;
    private final long startNanos;
    private final long measureStartNanos;
    private final Histogram measured = new Histogram(3);
    private long nextReportNanos;
    private long committedAtLastReport;
    private long committedAtMeasureStart = -1;
    /** Set by {@link #startReporter} on the generator's thread, read by its {@link #finish}. */
    private ScheduledExecutorService reporter;

    LatencyIntervals(CommitLatencyRecorder recorder, long startNanos, long measureStartNanos) {
        this.recorder = recorder;
        this.startNanos = startNanos;
        this.measureStartNanos = measureStartNanos;
        this.nextReportNanos = startNanos + INTERVAL_NANOS;
        recorder.takeInterval();
    }

    /** Starts the daemon thread that closes each interval when its second is over; {@link #finish} stops it. */
    void startReporter() {
        reporter = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "bench-intervals");
            thread.setDaemon(true);
            return thread;
        });
        reporter.scheduleAtFixedRate(() -> maybeReport(System.nanoTime()), REPORTER_TICK_MS, REPORTER_TICK_MS,
                TimeUnit.MILLISECONDS);
    }

    /** Closes the interval if a second has passed since the last one. */
    private synchronized void maybeReport(long nowNanos) {
        if (nowNanos >= nextReportNanos) {
            closeInterval(nowNanos);
            nextReportNanos += INTERVAL_NANOS;
        }
    }

    /** Stops the reporter, once it is done with a line it may be printing, and closes the last, partial interval. */
    void finish(long nowNanos) {
        if (reporter != null) {
            reporter.shutdownNow();
            try {
                reporter.awaitTermination(REPORTER_STOP_WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            closeInterval(nowNanos);
        }
    }

    /** Whether the warm-up is over: intervals closed from now on count. */
    synchronized boolean isMeasuring() {
        return committedAtMeasureStart >= 0;
    }

    synchronized Histogram measured() {
        return measured;
    }

    synchronized long measuredCommits() {
        return committedAtMeasureStart < 0 ? 0 : recorder.committedRecords() - committedAtMeasureStart;
    }

    private void closeInterval(long nowNanos) {
        Histogram interval = recorder.takeInterval();
        long committed = recorder.committedRecords();
        boolean measuring = committedAtMeasureStart >= 0;
        if (measuring) {
            measured.add(interval);
        }
        System.out.printf("PROGRESS %5.1f s %s committed %,d records, p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                (nowNanos - startNanos) / 1e9, measuring ? "measured" : "warm-up ", committed - committedAtLastReport,
                interval.getValueAtPercentile(50) / 1000.0, interval.getValueAtPercentile(99) / 1000.0,
                interval.getMaxValue() / 1000.0);
        System.out.flush();
        committedAtLastReport = committed;
        if (!measuring && nowNanos >= measureStartNanos) {
            committedAtMeasureStart = committed;
        }
    }
}
