package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench delete-topics}: creates {@code --count} topics ({@code --partitions} each,
 * RF 3, in batches of {@code --batch}, not measured), then deletes them by name in sequential
 * DeleteTopics requests of {@code --batch}; prints topics deleted per second over the deletes.
 * {@code --warmup} batches are created and deleted first, unmeasured. With {@code --client kafka},
 * through Kafka's Admin client ({@link KafkaClientBench}).
 */
@Command(name = "delete-topics", mixinStandardHelpOptions = true,
        description = "DeleteTopics throughput in batches on a running cluster (creates what it deletes).")
final class DeleteTopicsBench implements Callable<Integer> {
    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--count", description = "topics created, then deleted (default 500)")
    int count = 500;

    @Option(names = "--batch", description = "topics per request (default 100)")
    int batch = 100;

    @Option(names = "--partitions", description = "partitions of each topic deleted (default 1)")
    int partitions = 1;

    @Option(names = "--warmup", description = "batches created and deleted first, not measured (default 0)")
    int warmup = 0;

    void validate() {
        AdminBenchOptions.requirePositive("--count", count);
        AdminBenchOptions.requirePositive("--batch", batch);
        AdminBenchOptions.requirePositive("--partitions", partitions);
        AdminBenchOptions.requireNonNegative("--warmup", warmup);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        Shape shape = new Shape(count, batch, partitions, warmup);
        if (options.kafka()) {
            KafkaClientBench.deleteTopics(options, shape);
            return 0;
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            measure(shape, new Topics() {
                @Override
                public String name(int index) {
                    return session.topicName("dt", index);
                }

                @Override
                public void create(List<String> names) {
                    session.create(names.stream().map(n -> AdminBenchSession.topic(n, partitions, 3)).toList());
                }

                @Override
                public void delete(List<String> names) {
                    session.delete(names);
                }
            });
        }
        return 0;
    }

    /** What the procedure needs of a client: the run's topic names, and creating and deleting them. */
    interface Topics {
        String name(int index);

        void create(List<String> names) throws Exception;

        void delete(List<String> names) throws Exception;
    }

    /** What a run deletes: {@code count} topics of {@code partitions} in batches of {@code batch}, after {@code warmup} batches. */
    record Shape(int count, int batch, int partitions, int warmup) {
    }

    /**
     * The procedure every client runs: first {@code warmup} batches created and deleted
     * unmeasured (the client's own first calls load and compile its code), then
     * {@code count} topics created unmeasured and deleted by name in sequential batches of
     * {@code batch}, each timed; prints the figures.
     */
    static void measure(Shape shape, Topics topics) throws Exception {
        int next = 0;
        for (int round = 0; round < shape.warmup(); round++) {
            List<String> names = names(topics, next, shape.batch());
            next += names.size();
            topics.create(names);
            topics.delete(names);
        }
        List<List<String>> batches = new ArrayList<>();
        for (int size : AdminFigures.batches(shape.count(), shape.batch())) {
            List<String> names = names(topics, next, size);
            next += size;
            topics.create(names);
            batches.add(names);
        }
        System.out.printf("# delete-topics: %d warm-up batch(es) created and deleted; created %d topics (%d"
                + " partition(s), RF 3); deleting them by name in sequential batches of %d%n", shape.warmup(),
                shape.count(), shape.partitions(), shape.batch());
        Histogram batchMicros = AdminFigures.latencyMicros();
        long start = System.nanoTime();
        for (List<String> names : batches) {
            long batchStart = System.nanoTime();
            topics.delete(names);
            AdminFigures.recordSince(batchMicros, batchStart);
        }
        figureLines(shape.count(), System.nanoTime() - start, batchMicros).forEach(System.out::println);
    }

    private static List<String> names(Topics topics, int first, int size) {
        List<String> names = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            names.add(topics.name(first + i));
        }
        return names;
    }

    static List<String> figureLines(int deleted, long totalNanos, Histogram batchMicros) {
        return List.of(String.format(java.util.Locale.ROOT, "# deleted %d topics in %.3f s; batch p50 %.2f ms, max %.2f ms",
                        deleted, totalNanos / 1e9, AdminFigures.percentileMs(batchMicros, 50),
                        AdminFigures.maxMs(batchMicros)),
                AdminFigures.rate("delete_topics_per_s", AdminFigures.perSecond(deleted, totalNanos), "topics/s"));
    }
}
