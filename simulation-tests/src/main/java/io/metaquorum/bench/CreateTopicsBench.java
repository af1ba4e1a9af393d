package io.metaquorum.bench;

import io.metaquorum.protocol.CreatableTopic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench create-topics}: creates {@code --topics} topics of {@code --partitions}
 * partitions and {@code --replication-factor} replicas, in sequential CreateTopics requests
 * of {@code --batch} topics each answered once committed with every partition led; prints the
 * total time, partitions created per second and the batch latency p50 / p99; with
 * {@code --breakdown}, also where each batch's time went ({@link StageBreakdown}). With
 * {@code --client kafka}, through Kafka's Admin client ({@link KafkaClientBench}).
 */
@Command(name = "create-topics", mixinStandardHelpOptions = true,
        description = "CreateTopics throughput in batches on a running cluster.")
final class CreateTopicsBench implements Callable<Integer> {
    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--topics", description = "topics created (default 2000)")
    int topics = 2000;

    @Option(names = "--partitions", description = "partitions per topic (default 10)")
    int partitions = 10;

    @Option(names = "--replication-factor", description = "replicas per partition (default 3)")
    int replicationFactor = 3;

    @Option(names = "--batch", description = "topics per CreateTopics request (default 100)")
    int batch = 100;

    @Option(names = "--breakdown", description = "trace every batch and print where its time went, stage by stage "
            + "(p50 and p99 of each); the batches go to the first --bootstrap-server node, unretried")
    boolean breakdown;

    void validate() {
        AdminBenchOptions.requirePositive("--topics", topics);
        AdminBenchOptions.requirePositive("--partitions", partitions);
        AdminBenchOptions.requirePositive("--replication-factor", replicationFactor);
        AdminBenchOptions.requirePositive("--batch", batch);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        if (options.kafka()) {
            if (breakdown) {
                options.refuseWithKafka("--breakdown", "it traces metaquorum's own stages, which Kafka has not");
            }
            KafkaClientBench.createTopics(options, topics, partitions, replicationFactor, batch);
            return 0;
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            System.out.printf("# create-topics: %d topics x %d partitions x RF %d, sequential batches of %d,"
                    + " timeout_ms > 0 (answered once committed)%n", topics, partitions, replicationFactor, batch);
            Histogram batchMicros = AdminFigures.latencyMicros();
            StageBreakdown stages = new StageBreakdown();
            int next = 0;
            long total;
            try (TracedCreates traced = breakdown ? new TracedCreates(options.bootstrap().get(0), options.timeoutMs,
                    options.security().credentials())
                    : null) {
                long start = System.nanoTime();
                for (int size : AdminFigures.batches(topics, batch)) {
                    List<CreatableTopic> request = new ArrayList<>(size);
                    for (int i = 0; i < size; i++) {
                        request.add(AdminBenchSession.topic(session.topicName("ct", next++), partitions,
                                replicationFactor));
                    }
                    long batchStart = System.nanoTime();
                    if (traced != null) {
                        stages.add(traced.create(request));
                    } else {
                        session.create(request);
                    }
                    AdminFigures.recordSince(batchMicros, batchStart);
                }
                total = System.nanoTime() - start;
            }
            figureLines(total, (long) topics * partitions, batchMicros).forEach(System.out::println);
            if (breakdown) {
                System.out.println(stages.summary("batches", options.bootstrap().get(0)));
                stages.lines("create_topics").forEach(System.out::println);
            }
        }
        return 0;
    }

    static List<String> figureLines(long totalNanos, long partitionsCreated, Histogram batchMicros) {
        return List.of(AdminFigures.seconds("create_topics_total_s", totalNanos / 1e9),
                AdminFigures.rate("create_topics_partitions_per_s",
                        AdminFigures.perSecond(partitionsCreated, totalNanos), "partitions/s"),
                AdminFigures.ms("create_topics_batch_p50_ms", AdminFigures.percentileMs(batchMicros, 50)),
                AdminFigures.ms("create_topics_batch_p99_ms", AdminFigures.percentileMs(batchMicros, 99)));
    }
}
