package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;

/**
 * The admin workloads with {@code --client kafka}: the same procedure as their gRPC path (the
 * same defaults, run id and topic names, warm-up counts, requests sent one after another and
 * waited for, latencies into {@link AdminFigures}' histograms and the same figure lines) through
 * Kafka's own Admin client, so the same client measures metaquorum's Kafka listener and a Kafka
 * cluster (docs/benchmarks.md, "Kafka 4.4.0 on the same machine"). create-one's loops are
 * {@link CreateOneBench}'s own. Where Kafka's API differs the note lines say how: describing every
 * topic is a ListTopics and then a DescribeTopics of the names.
 */
final class KafkaClientBench {
    private KafkaClientBench() {
    }

    /** create-topics: sequential CreateTopics of {@code batch} topics each. */
    static void createTopics(AdminBenchOptions options, int topics, int partitions, int replicationFactor, int batch)
            throws Exception {
        try (KafkaBenchSession session = KafkaBenchSession.open(options)) {
            System.out.printf("# create-topics: %d topics x %d partitions x RF %d, sequential batches of %d,"
                    + " timeout_ms > 0 (answered once committed)%n", topics, partitions, replicationFactor, batch);
            Histogram batchMicros = AdminFigures.latencyMicros();
            int next = 0;
            long start = System.nanoTime();
            for (int size : AdminFigures.batches(topics, batch)) {
                List<NewTopic> request = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    request.add(KafkaBenchSession.topic(session.topicName("ct", next++), partitions,
                            replicationFactor));
                }
                long batchStart = System.nanoTime();
                session.create(request);
                AdminFigures.recordSince(batchMicros, batchStart);
            }
            long total = System.nanoTime() - start;
            CreateTopicsBench.figureLines(total, (long) topics * partitions, batchMicros)
                    .forEach(System.out::println);
        }
    }

    /**
     * describe-all: every topic described, {@code runs} times after {@code warmup} unmeasured
     * calls; the median. Kafka's Admin has no "describe all": each call is a ListTopics
     * (internal topics included) and a DescribeTopics of the names it returned, timed together;
     * the Admin client sends the latter as DescribeTopicPartitions requests, paged by itself.
     */
    static void describeAll(AdminBenchOptions options, int runs, int warmup) throws Exception {
        try (KafkaBenchSession session = KafkaBenchSession.open(options)) {
            Map<String, TopicDescription> described = Map.of();
            for (int i = 0; i < warmup; i++) {
                described = describeAll(session);
            }
            List<Double> times = new ArrayList<>();
            List<Integer> topicsSeen = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                long start = System.nanoTime();
                described = describeAll(session);
                times.add((System.nanoTime() - start) / 1e6);
                topicsSeen.add(described.size());
            }
            if (topicsSeen.stream().distinct().count() > 1) {
                // Kafka answers from the broker's metadata cache, which a broker still creating the
                // partitions of earlier topics has not caught up yet.
                System.out.println("# the broker's metadata changed between the calls (topics per call: "
                        + topicsSeen + "); wait until the brokers have caught up and run it again");
            }
            long partitions = described.values().stream().mapToLong(d -> d.partitions().size()).sum();
            System.out.println(describeNote(described.size(), partitions, warmup, times));
            System.out.println(AdminFigures.ms("describe_all_ms", AdminFigures.median(times)));
        }
    }

    static String describeNote(int topics, long partitions, int warmup, List<Double> times) {
        StringBuilder note = new StringBuilder(String.format(Locale.ROOT,
                "# describe-all: %d topics, %d partitions (ListTopics, then DescribeTopics of them); median of %d"
                        + " calls after %d unmeasured; calls (ms):", topics, partitions, times.size(), warmup));
        times.forEach(t -> note.append(String.format(Locale.ROOT, " %.2f", t)));
        return note.toString();
    }

    private static Map<String, TopicDescription> describeAll(KafkaBenchSession session) throws InterruptedException {
        try {
            Set<String> names = session.admin.listTopics(new ListTopicsOptions().listInternal(true)
                    .timeoutMs(session.timeoutMs)).names().get();
            return session.admin.describeTopics(names, new DescribeTopicsOptions().timeoutMs(session.timeoutMs))
                    .allTopicNames().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(KafkaBenchSession.describe(e), e);
        }
    }

    /** delete-topics, by {@link DeleteTopicsBench#measure}'s procedure through Kafka's client. */
    static void deleteTopics(AdminBenchOptions options, DeleteTopicsBench.Shape shape) throws Exception {
        int partitions = shape.partitions();
        try (KafkaBenchSession session = KafkaBenchSession.open(options)) {
            DeleteTopicsBench.measure(shape, new DeleteTopicsBench.Topics() {
                @Override
                public String name(int index) {
                    return session.topicName("dt", index);
                }

                @Override
                public void create(List<String> names) throws InterruptedException {
                    session.create(names.stream().map(n -> KafkaBenchSession.topic(n, partitions, 3)).toList());
                }

                @Override
                public void delete(List<String> names) throws InterruptedException {
                    session.delete(names);
                }
            });
        }
    }
}
