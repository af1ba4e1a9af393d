package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench create-one}: {@code --count} sequential CreateTopics of one topic (1
 * partition, RF 3), each answered once committed with its partition led ({@code timeout_ms >
 * 0}); prints p50, p99 and max. {@code --warmup} creates go first and are not measured. With
 * {@code --breakdown} each measured create asks the node for its trace ({@link TracedCreates})
 * and the figures are per stage instead.
 */
@Command(name = "create-one", mixinStandardHelpOptions = true,
        description = "Latency of sequential single-topic CreateTopics on a running cluster.")
final class CreateOneBench implements Callable<Integer> {
    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--count", description = "measured creates (default 200)")
    int count = 200;

    @Option(names = "--warmup", description = "creates before measuring, not counted (default 10)")
    int warmup = 10;

    @Option(names = "--breakdown", description = "trace every measured create and print where its time went, "
            + "stage by stage (p50 and p99 of each); the creates go to the first --bootstrap-server node, unretried")
    boolean breakdown;

    void validate() {
        AdminBenchOptions.requirePositive("--count", count);
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
        }
    }

    @Override
    public Integer call() throws Exception {
        validate();
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            System.out.printf("# create-one: %d sequential creates of 1 topic (1 partition, RF 3, timeout_ms > 0)"
                    + " after %d unmeasured ones%n", count, warmup);
            for (int i = 0; i < warmup; i++) {
                session.create(List.of(AdminBenchSession.topic(session.topicName("w1", i), 1, 3)));
            }
            if (breakdown) {
                measureTraced(session);
                return 0;
            }
            Histogram micros = AdminFigures.latencyMicros();
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                session.create(List.of(AdminBenchSession.topic(session.topicName("c1", i), 1, 3)));
                AdminFigures.recordSince(micros, start);
            }
            figureLines(micros).forEach(System.out::println);
        }
        return 0;
    }

    private void measureTraced(AdminBenchSession session) {
        Map<String, Histogram> stages = new LinkedHashMap<>();
        Set<String> paths = new TreeSet<>();
        try (TracedCreates traced = new TracedCreates(options.bootstrap().get(0), options.timeoutMs)) {
            for (int i = 0; i < count; i++) {
                CreateTrace trace = traced.create(AdminBenchSession.topic(session.topicName("t1", i), 1, 3));
                paths.add(trace.forwarded() ? "forwarded to controller " + trace.controllerId()
                        : "run by controller " + trace.controllerId());
                trace.stages().forEach((stage, micros) -> stages.computeIfAbsent(stage,
                        s -> AdminFigures.latencyMicros()).recordValue(Math.max(0, micros)));
            }
        }
        System.out.printf("# breakdown of %d creates sent to %s (%s); each stage's p50 and p99 over the creates"
                + " (they do not add up: each percentile is taken alone)%n", count, options.bootstrap().get(0),
                String.join(", ", paths));
        breakdownLines(stages).forEach(System.out::println);
    }

    static List<String> breakdownLines(Map<String, Histogram> stages) {
        List<String> lines = new ArrayList<>();
        stages.forEach((stage, micros) -> {
            lines.add(AdminFigures.ms("create_one_" + stage + "_p50_ms", AdminFigures.percentileMs(micros, 50)));
            lines.add(AdminFigures.ms("create_one_" + stage + "_p99_ms", AdminFigures.percentileMs(micros, 99)));
        });
        return lines;
    }

    static List<String> figureLines(Histogram micros) {
        return List.of(AdminFigures.ms("create_one_p50_ms", AdminFigures.percentileMs(micros, 50)),
                AdminFigures.ms("create_one_p99_ms", AdminFigures.percentileMs(micros, 99)),
                AdminFigures.ms("create_one_max_ms", AdminFigures.maxMs(micros)));
    }
}
