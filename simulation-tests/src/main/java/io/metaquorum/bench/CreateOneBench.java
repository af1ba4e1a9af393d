package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench create-one}: {@code --count} sequential CreateTopics of one topic (1
 * partition, RF 3), each answered once committed with its partition led ({@code timeout_ms >
 * 0}); prints p50, p99 and max. {@code --warmup} creates go first and are not measured. With
 * {@code --breakdown} each measured create asks the node for its trace ({@link TracedCreates})
 * and the figures are per stage instead. With {@code --client kafka} the same loops run through
 * Kafka's Admin client ({@link KafkaBenchSession}).
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

    @Option(names = "--clients", description = "clients creating at the same time, each one create after another "
            + "(default 1); the --count creates are shared among them")
    int clients = 1;

    @Option(names = "--breakdown", description = "trace every measured create and print where its time went, "
            + "stage by stage (p50 and p99 of each); the creates go to the first --bootstrap-server node, unretried; "
            + "each is followed by a traced validate-only create (the same path, nothing committed), printed apart "
            + "as create_one_validate_only_*")
    boolean breakdown;

    void validate() {
        AdminBenchOptions.requirePositive("--count", count);
        AdminBenchOptions.requireNonNegative("--warmup", warmup);
        AdminBenchOptions.requirePositive("--clients", clients);
        if (breakdown && clients > 1) {
            throw new IllegalArgumentException("--breakdown traces one client's creates; leave --clients at 1");
        }
    }

    /**
     * One create of one topic (1 partition, RF 3) by name, answered once committed: the gRPC or
     * the Kafka client's, so both clients run the same loops below.
     */
    interface OneTopicCreate {
        void create(String name) throws Exception;
    }

    @Override
    public Integer call() throws Exception {
        validate();
        if (options.kafka()) {
            if (breakdown) {
                options.refuseWithKafka("--breakdown", "it traces metaquorum's own stages, which Kafka has not");
            }
            try (KafkaBenchSession session = KafkaBenchSession.open(options)) {
                OneTopicCreate create = name -> session.create(List.of(KafkaBenchSession.topic(name, 1, 3)));
                warmUp(session.runId, create);
                measure(session.runId, create);
            }
            return 0;
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            OneTopicCreate create = name -> session.create(List.of(AdminBenchSession.topic(name, 1, 3)));
            warmUp(session.runId, create);
            if (breakdown) {
                measureTraced(session);
                return 0;
            }
            measure(session.runId, create);
        }
        return 0;
    }

    private void warmUp(String runId, OneTopicCreate create) throws Exception {
        System.out.printf("# create-one: %d sequential creates of 1 topic (1 partition, RF 3, timeout_ms > 0)"
                + " after %d unmeasured ones%n", count, warmup);
        for (int i = 0; i < warmup; i++) {
            create.create(AdminBenchSession.topicName(runId, "w1", i));
        }
    }

    private void measure(String runId, OneTopicCreate create) throws Exception {
        if (clients > 1) {
            measureConcurrent(runId, create);
            return;
        }
        Histogram micros = AdminFigures.latencyMicros();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            create.create(AdminBenchSession.topicName(runId, "c1", i));
            AdminFigures.recordSince(micros, start);
        }
        figureLines(micros).forEach(System.out::println);
    }

    /**
     * {@code clients} threads share the creates, each one after another: the controller
     * queues the creates that arrive together and raft appends what they write in one batch,
     * synced and committed once, each create still answered on its own.
     */
    private void measureConcurrent(String runId, OneTopicCreate create)
            throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Histogram>> runs = new ArrayList<>();
            long start = System.nanoTime();
            for (int c = 0; c < clients; c++) {
                int client = c;
                runs.add(pool.submit(() -> {
                    Histogram micros = AdminFigures.latencyMicros();
                    for (int i = client; i < count; i += clients) {
                        long createStart = System.nanoTime();
                        create.create(AdminBenchSession.topicName(runId, "m1", i));
                        AdminFigures.recordSince(micros, createStart);
                    }
                    return micros;
                }));
            }
            Histogram all = AdminFigures.latencyMicros();
            for (Future<Histogram> run : runs) {
                all.add(run.get());
            }
            long total = System.nanoTime() - start;
            System.out.printf("# %d clients at once%n", clients);
            figureLines(all).forEach(System.out::println);
            System.out.println(AdminFigures.rate("create_one_per_s", AdminFigures.perSecond(count, total),
                    "creates/s"));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Traced creates, each followed by a traced validate-only create of another name: what a
     * commit costs the whole path (the controller's raft commit, and the followers' and brokers'
     * work on it, which shares the machine with the answer's way back) is the difference.
     */
    private void measureTraced(AdminBenchSession session) {
        StageBreakdown breakdown = new StageBreakdown();
        StageBreakdown validateOnly = new StageBreakdown();
        try (TracedCreates traced = new TracedCreates(options.bootstrap().get(0), options.timeoutMs,
                options.security().credentials())) {
            for (int i = 0; i < count; i++) {
                breakdown.add(traced.create(List.of(AdminBenchSession.topic(session.topicName("t1", i), 1, 3))));
                validateOnly.add(traced.create(List.of(AdminBenchSession.topic(session.topicName("v1", i), 1, 3)),
                        true));
            }
        }
        System.out.println(breakdown.summary("creates", options.bootstrap().get(0)));
        breakdown.lines("create_one").forEach(System.out::println);
        System.out.println(validateOnly.summary("validate-only creates, each right after one above",
                options.bootstrap().get(0)));
        validateOnly.lines("create_one_validate_only").forEach(System.out::println);
    }

    static List<String> figureLines(Histogram micros) {
        return List.of(AdminFigures.ms("create_one_p50_ms", AdminFigures.percentileMs(micros, 50)),
                AdminFigures.ms("create_one_p99_ms", AdminFigures.percentileMs(micros, 99)),
                AdminFigures.ms("create_one_max_ms", AdminFigures.maxMs(micros)));
    }
}
