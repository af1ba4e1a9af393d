package io.metaquorum.bench;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.DescribedTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench describe-all}: the time to describe every topic, page by page as
 * {@code mq-topics --describe} does ({@link io.metaquorum.client.AdminClient#describeTopicPages},
 * {@code --page-partitions} a page; 0: one unpaged DescribeTopics, as before paging), measured
 * {@code --runs} times after {@code --warmup} unmeasured walks; prints the median. It
 * describes whatever the cluster holds (run create-topics first for Kafka's case of 2,000
 * topics and 20,000 partitions) and says how many topics, partitions and pages that was. With
 * {@code --client kafka}, a ListTopics and a DescribeTopics of the names through Kafka's Admin
 * client ({@link KafkaClientBench}).
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

    @Option(names = "--page-partitions", description = "partitions per page (default 10000, the most a node "
            + "serves); 0: one unpaged call")
    int pagePartitions = AdminClient.DESCRIBE_PAGE_PARTITIONS;

    void validate() {
        AdminBenchOptions.requirePositive("--runs", runs);
        AdminBenchOptions.requireNonNegative("--warmup", warmup);
        AdminBenchOptions.requireNonNegative("--page-partitions", pagePartitions);
    }

    /** What one walk saw: topic pieces (a topic split across pages counts once per page), partitions, pages. */
    record Walk(int topicPieces, long partitions, int pages) {
    }

    private Walk walk(AdminBenchSession session) {
        if (pagePartitions == 0) {
            List<DescribedTopic> all = session.admin.describeTopics(List.of(), session.timeoutMs);
            return new Walk(all.size(), all.stream().mapToLong(DescribedTopic::getPartitionsCount).sum(), 1);
        }
        int[] pieces = {0};
        long[] partitions = {0};
        int[] pages = {0};
        session.admin.describeTopicPages(pagePartitions, session.timeoutMs, page -> {
            pages[0]++;
            pieces[0] += page.getTopicsCount();
            for (DescribedTopic topic : page.getTopicsList()) {
                partitions[0] += topic.getPartitionsCount();
            }
        });
        return new Walk(pieces[0], partitions[0], pages[0]);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        if (options.kafka()) {
            if (options.given("--page-partitions")) {
                options.refuseWithKafka("--page-partitions", "Kafka's Admin client pages DescribeTopicPartitions "
                        + "by itself");
            }
            KafkaClientBench.describeAll(options, runs, warmup);
            return 0;
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            Walk walk = null;
            for (int i = 0; i < warmup; i++) {
                walk = walk(session);
            }
            List<Double> times = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                walk = walk(session);
                times.add((System.nanoTime() - start) / 1e6);
            }
            System.out.println(note(walk, warmup, times));
            System.out.println(AdminFigures.ms("describe_all_ms", AdminFigures.median(times)));
        }
        return 0;
    }

    static String note(Walk walk, int warmup, List<Double> times) {
        StringBuilder text = new StringBuilder(String.format(java.util.Locale.ROOT,
                "# describe-all: %d topic pieces, %d partitions in %d page(s); median of %d walks after %d "
                        + "unmeasured; walks (ms):", walk.topicPieces(), walk.partitions(), walk.pages(),
                times.size(), warmup));
        for (double t : times) {
            text.append(String.format(java.util.Locale.ROOT, " %.2f", t));
        }
        return text.toString();
    }
}
