package io.metaquorum.bench;

import java.util.List;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench create-one}: {@code --count} sequential CreateTopics of one topic (1
 * partition, RF 3), each answered once committed with its partition led ({@code timeout_ms >
 * 0}); prints p50, p99 and max. {@code --warmup} creates go first and are not measured.
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

    static List<String> figureLines(Histogram micros) {
        return List.of(AdminFigures.ms("create_one_p50_ms", AdminFigures.percentileMs(micros, 50)),
                AdminFigures.ms("create_one_p99_ms", AdminFigures.percentileMs(micros, 99)),
                AdminFigures.ms("create_one_max_ms", AdminFigures.maxMs(micros)));
    }
}
