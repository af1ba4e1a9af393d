package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * The stages of many traced creates ({@link CreateTrace#stages()}), each stage's durations in
 * its own histogram, printed as {@code PREFIX_STAGE_p50_ms} and {@code PREFIX_STAGE_p99_ms}
 * lines in the order the stages come. Percentiles are taken stage by stage, so they do not
 * add up to the total's.
 */
final class StageBreakdown {
    private final Map<String, Histogram> stages = new LinkedHashMap<>();
    private final Set<String> paths = new TreeSet<>();
    private int traces;

    void add(CreateTrace trace) {
        traces++;
        paths.add(trace.forwarded() ? "forwarded to controller " + trace.controllerId()
                : "run by controller " + trace.controllerId());
        trace.stages().forEach((stage, micros) -> stages.computeIfAbsent(stage, s -> AdminFigures.latencyMicros())
                .recordValue(Math.max(0, micros)));
    }

    /** A {@code #} line naming how many calls were traced and which controllers ran them. */
    String summary(String calls, Object node) {
        return String.format("# breakdown of %d %s sent to %s (%s); each stage's p50 and p99 over them"
                + " (they do not add up: each percentile is taken alone)", traces, calls, node, String.join(", ", paths));
    }

    List<String> lines(String prefix) {
        List<String> lines = new ArrayList<>();
        stages.forEach((stage, micros) -> {
            lines.add(AdminFigures.ms(prefix + "_" + stage + "_p50_ms", AdminFigures.percentileMs(micros, 50)));
            lines.add(AdminFigures.ms(prefix + "_" + stage + "_p99_ms", AdminFigures.percentileMs(micros, 99)));
        });
        return lines;
    }
}
