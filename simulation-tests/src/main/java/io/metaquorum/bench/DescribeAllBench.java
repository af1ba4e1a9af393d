package io.metaquorum.bench;

import io.metaquorum.protocol.DescribedTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench describe-all}: the time of one DescribeTopics of every topic (an empty
 * request), measured {@code --runs} times after {@code --warmup} unmeasured calls; prints the
 * median. It describes whatever the cluster holds (run create-topics first for Kafka's case of
 * 2,000 topics and 20,000 partitions) and says how many topics and partitions that was.
 */
@Command(name = "describe-all", mixinStandardHelpOptions = true,
        description = "Time of one DescribeTopics of all topics on a running cluster (median).")
final class DescribeAllBench implements Callable<Integer> {
    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--runs", description = "measured calls; the median is printed (default 5)")
    int runs = 5;

    @Option(names = "--warmup", description = "calls before measuring, not counted (default 2)")
    int warmup = 2;

    void validate() {
        AdminBenchOptions.requirePositive("--runs", runs);
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
        }
    }

    @Override
    public Integer call() throws Exception {
        validate();
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            List<DescribedTopic> described = List.of();
            for (int i = 0; i < warmup; i++) {
                described = session.admin.describeTopics(List.of(), session.timeoutMs);
            }
            List<Double> times = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                described = session.admin.describeTopics(List.of(), session.timeoutMs);
                times.add((System.nanoTime() - start) / 1e6);
            }
            long partitions = described.stream().mapToLong(DescribedTopic::getPartitionsCount).sum();
            System.out.println(note(described.size(), partitions, warmup, times));
            System.out.println(AdminFigures.ms("describe_all_ms", AdminFigures.median(times)));
        }
        return 0;
    }

    static String note(int topics, long partitions, int warmup, List<Double> times) {
        StringBuilder text = new StringBuilder(String.format(java.util.Locale.ROOT,
                "# describe-all: %d topics, %d partitions; median of %d calls after %d unmeasured; calls (ms):",
                topics, partitions, times.size(), warmup));
        for (double t : times) {
            text.append(String.format(java.util.Locale.ROOT, " %.2f", t));
        }
        return text.toString();
    }
}
