package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The figure lines of the admin workloads ({@code name value unit}, docs/commands.md) and the
 * statistics behind them: latencies are recorded in microseconds into an HdrHistogram and
 * printed in milliseconds with two decimals; rates print whole.
 *
 * <p>Both clients of a workload ({@code --client grpc|kafka}) record and print through it, so
 * the figures of metaquorum and of a Kafka cluster are computed and printed by the same code.
 */
final class AdminFigures {
    private AdminFigures() {
    }

    /** A latency histogram in microseconds, 3 significant digits. */
    static Histogram latencyMicros() {
        return new Histogram(3);
    }

    /** Records the time since {@code startNanos} into {@code micros}; returns it in nanoseconds. */
    static long recordSince(Histogram micros, long startNanos) {
        long elapsed = System.nanoTime() - startNanos;
        micros.recordValue(Math.max(0, elapsed / 1_000));
        return elapsed;
    }

    static double percentileMs(Histogram micros, double percentile) {
        return micros.getValueAtPercentile(percentile) / 1_000.0;
    }

    static double maxMs(Histogram micros) {
        return micros.getMaxValue() / 1_000.0;
    }

    /** {@code name value ms}, two decimals. */
    static String ms(String name, double valueMs) {
        return String.format(Locale.ROOT, "%s %.2f ms", name, valueMs);
    }

    /** {@code name value s}, three decimals. */
    static String seconds(String name, double valueS) {
        return String.format(Locale.ROOT, "%s %.3f s", name, valueS);
    }

    /** {@code name value unit} of a rate, whole. */
    static String rate(String name, double perSecond, String unit) {
        return String.format(Locale.ROOT, "%s %.0f %s", name, perSecond, unit);
    }

    /** {@code count} things in {@code nanos}, per second. */
    static double perSecond(long count, long nanos) {
        return count * 1e9 / Math.max(1, nanos);
    }

    /** The middle value; of an even count, the upper of the two middle ones. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }

    /** The sizes of the batches that split {@code total} items into batches of at most {@code batch}. */
    static List<Integer> batches(int total, int batch) {
        List<Integer> sizes = new ArrayList<>();
        for (int done = 0; done < total; done += batch) {
            sizes.add(Math.min(batch, total - done));
        }
        return sizes;
    }
}
