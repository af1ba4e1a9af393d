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
 * With {@code --client kafka}, through Kafka's Admin client ({@link KafkaClientBench}).
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

    void validate() {
        AdminBenchOptions.requirePositive("--count", count);
        AdminBenchOptions.requirePositive("--batch", batch);
        AdminBenchOptions.requirePositive("--partitions", partitions);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        if (options.kafka()) {
            KafkaClientBench.deleteTopics(options, count, batch, partitions);
            return 0;
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            measure(count, batch, partitions, new Topics() {
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

    /**
     * The procedure every client runs: creates {@code count} topics unmeasured, then deletes
     * them by name in sequential batches of {@code batch}, each timed, and prints the figures.
     */
    static void measure(int count, int batch, int partitions, Topics topics) throws Exception {
        List<List<String>> batches = new ArrayList<>();
        int next = 0;
        for (int size : AdminFigures.batches(count, batch)) {
            List<String> names = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                names.add(topics.name(next++));
            }
            topics.create(names);
            batches.add(names);
        }
        System.out.printf("# delete-topics: created %d topics (%d partition(s), RF 3); deleting them by name"
                + " in sequential batches of %d%n", count, partitions, batch);
        Histogram batchMicros = AdminFigures.latencyMicros();
        long start = System.nanoTime();
        for (List<String> names : batches) {
            long batchStart = System.nanoTime();
            topics.delete(names);
            AdminFigures.recordSince(batchMicros, batchStart);
        }
        figureLines(count, System.nanoTime() - start, batchMicros).forEach(System.out::println);
    }

    static List<String> figureLines(int deleted, long totalNanos, Histogram batchMicros) {
        return List.of(String.format(java.util.Locale.ROOT, "# deleted %d topics in %.3f s; batch p50 %.2f ms, max %.2f ms",
                        deleted, totalNanos / 1e9, AdminFigures.percentileMs(batchMicros, 50),
                        AdminFigures.maxMs(batchMicros)),
                AdminFigures.rate("delete_topics_per_s", AdminFigures.perSecond(deleted, totalNanos), "topics/s"));
    }
}
