package io.metaquorum.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Cuts the commit latencies into one-second intervals, prints each as a
 * {@code PROGRESS} line (so a stall or a backlog left by the warm-up shows where it
 * happened), and sums the intervals after the warm-up into the measured histogram.
 */
final class LatencyIntervals {
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final CommitLatencyRecorder recorder;
    private final long startNanos;
    private final long measureStartNanos;
    private final Histogram measured = new Histogram(3);
    private long nextReportNanos;
    private long committedAtLastReport;
    private long committedAtMeasureStart = -1;

    LatencyIntervals(CommitLatencyRecorder recorder, long startNanos, long measureStartNanos) {
        this.recorder = recorder;
        this.startNanos = startNanos;
        this.measureStartNanos = measureStartNanos;
        this.nextReportNanos = startNanos + INTERVAL_NANOS;
        recorder.takeInterval();
    }

    /** Closes the interval if a second has passed since the last one. */
    void maybeReport(long nowNanos) {
        if (nowNanos >= nextReportNanos) {
            closeInterval(nowNanos);
            nextReportNanos += INTERVAL_NANOS;
        }
    }

    /** Closes the last, partial interval. */
    void finish(long nowNanos) {
        closeInterval(nowNanos);
    }

    Histogram measured() {
        return measured;
    }

    long measuredCommits() {
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
