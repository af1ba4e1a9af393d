package io.metaquorum.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The admin workloads of {@code mq-bench} run against an Apache Kafka cluster through Kafka's
 * own {@link Admin} client, so that the two systems are measured by the same procedure on the
 * same machine: {@code bin/kafka-peer bench WORKLOAD [options]} (docs/benchmarks.md, "Kafka
 * 4.4.0 on the same machine").
 *
 * <p>Each workload mirrors its namesake in {@code io.metaquorum.bench} (CreateTopicsBench,
 * CreateOneBench, DescribeAllBench, DeleteTopicsBench): the same options and
 * defaults, the same run id and topic names, the same warm-up counts, requests sent one after
 * another and waited for, latencies in microseconds into an HdrHistogram of 3 significant
 * digits, and the same {@code name value unit} lines. Where Kafka's API differs, the note lines
 * say how: describing every topic is a ListTopics and then a DescribeTopics of the names.
 *
 * <p>One file, compiled with mq-bench's own {@link AdminFigures} (its statistics and figure
 * lines, so both systems' figures are computed and printed by the same code) against the Kafka
 * classpath that simulation-tests/src/kafka-peer/pom.xml resolves; nothing of it is in the
 * default build.
 */
public final class KafkaPeerBench {
    private static final long UNFENCE_TIMEOUT_MS = 60_000;

    private KafkaPeerBench() {
    }

    public static void main(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            System.out.println(usage());
            System.exit(args.length == 0 ? 2 : 0);
        }
        try {
            Options options = Options.parse(args[0], List.of(args).subList(1, args.length));
            if (options.help) {
                System.out.println(usage());
                return;
            }
            run(args[0], options);
        } catch (IllegalArgumentException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("Error: " + describe(e));
            System.exit(1);
        }
        System.exit(0);
    }

    static String usage() {
        return String.join("\n",
                "Usage: kafka-peer bench WORKLOAD --bootstrap-server H:P[,H:P...] [options]",
                "The admin workloads of mq-bench, against Kafka through its Admin client; one 'name value unit' line",
                "per figure, notes on lines starting with #. Every workload takes --brokers 3 (unfenced brokers",
                "wanted before measuring) and --timeout-ms 60000 (deadline of one admin call).",
                "  create-topics  --topics 2000 --partitions 10 --replication-factor 3 --batch 100",
                "  create-one     --count 200 --warmup 10",
                "  describe-all   --runs 5 --warmup 2",
                "  delete-topics  --count 500 --batch 100 --partitions 1",
                "  brokers        [--min-unfenced N]: the registered brokers, fenced or not; with --min-unfenced,",
                "                 waits (up to --timeout-ms) until that many are unfenced and fails otherwise");
    }

    static void run(String workload, Options options) throws Exception {
        if (workload.equals("brokers")) {
            Brokers.run(options);
            return;
        }
        try (Session session = Session.open(options)) {
            switch (workload) {
                case "create-topics" -> CreateTopics.run(session, options);
                case "create-one" -> CreateOne.run(session, options);
                case "describe-all" -> DescribeAll.run(session, options);
                case "delete-topics" -> DeleteTopics.run(session, options);
                default -> throw new IllegalStateException("unreachable: " + workload);
            }
        }
    }

    /** The error code Kafka gives the failure first (as mq-bench's admin failures do), then its message. */
    static String describe(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause.getClass() == RuntimeException.class)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        Errors error = Errors.forException(cause);
        String code = error == Errors.UNKNOWN_SERVER_ERROR ? cause.getClass().getSimpleName() : error.name();
        return code + ": " + cause.getMessage();
    }

    /**
     * The options of one workload: {@code --name value} pairs, each known to the workload, with
     * mq-bench's defaults. Throws {@link IllegalArgumentException} naming what is wrong.
     */
    static final class Options {
        private static final Map<String, Map<String, Long>> DEFAULTS = Map.of(
                "create-topics", Map.of("--topics", 2000L, "--partitions", 10L, "--replication-factor", 3L,
                        "--batch", 100L),
                "create-one", Map.of("--count", 200L, "--warmup", 10L),
                "describe-all", Map.of("--runs", 5L, "--warmup", 2L),
                "delete-topics", Map.of("--count", 500L, "--batch", 100L, "--partitions", 1L),
                "brokers", Map.of("--min-unfenced", 0L));
        private static final Set<String> POSITIVE = Set.of("--topics", "--partitions", "--replication-factor",
                "--batch", "--count", "--runs", "--brokers", "--timeout-ms");

        String bootstrapServer;
        boolean help;
        final Map<String, Long> values = new LinkedHashMap<>();

        static Options parse(String workload, List<String> args) {
            Map<String, Long> defaults = DEFAULTS.get(workload);
            if (defaults == null) {
                throw new IllegalArgumentException("unknown workload '" + workload
                        + "'; one of create-topics, create-one, describe-all, delete-topics, brokers");
            }
            Options options = new Options();
            options.values.putAll(defaults);
            options.values.put("--brokers", 3L);
            options.values.put("--timeout-ms", 60_000L);
            for (int i = 0; i < args.size(); i++) {
                String name = args.get(i);
                if (name.equals("--help") || name.equals("-h")) {
                    options.help = true;
                    return options;
                }
                String value = i + 1 < args.size() ? args.get(++i) : null;
                options.set(workload, name, value);
            }
            options.validate();
            return options;
        }

        private void set(String workload, String name, String value) {
            if (name.equals("--breakdown")) {
                throw new IllegalArgumentException(
                        "--breakdown traces metaquorum's own stages; Kafka has no such trace");
            }
            if (!name.equals("--bootstrap-server") && !values.containsKey(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "' for " + workload + "; see --help");
            }
            if (value == null) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            if (name.equals("--bootstrap-server")) {
                bootstrapServer = value;
                return;
            }
            try {
                values.put(name, Long.parseLong(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a number, got '" + value + "'");
            }
        }

        private void validate() {
            if (bootstrapServer == null || bootstrapServer.isBlank()) {
                throw new IllegalArgumentException("--bootstrap-server H:P is required");
            }
            values.forEach((name, value) -> {
                long min = POSITIVE.contains(name) ? 1 : 0;
                if (value < min || value > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
                }
            });
        }

        int get(String name) {
            return Math.toIntExact(values.get(name));
        }

        long timeoutMs() {
            return values.get("--timeout-ms");
        }
    }

    /**
     * An {@link Admin} on the bootstrap brokers of a running cluster with at least
     * {@code --brokers} unfenced brokers, and a run id that prefixes every topic it creates
     * (the same id and names as mq-bench's AdminBenchSession).
     */
    static final class Session implements AutoCloseable {
        final Admin admin;
        final String runId;
        final int timeoutMs;

        private Session(Admin admin, String runId, int timeoutMs) {
            this.admin = admin;
            this.runId = runId;
            this.timeoutMs = timeoutMs;
        }

        static Session open(Options options) throws Exception {
            Session session = new Session(connect(options), "b" + Long.toString(System.currentTimeMillis(), 36),
                    Math.toIntExact(options.timeoutMs()));
            try {
                List<Integer> unfenced = awaitUnfenced(session.admin, options.get("--brokers"), UNFENCE_TIMEOUT_MS,
                        session.timeoutMs);
                System.out.println("# run " + session.runId + ": unfenced brokers " + unfenced);
                return session;
            } catch (Exception e) {
                session.close();
                throw e;
            }
        }

        static Admin connect(Options options) {
            Properties config = new Properties();
            config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServer);
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Math.toIntExact(options.timeoutMs()));
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.toIntExact(options.timeoutMs()));
            return Admin.create(config);
        }

        /** The unfenced brokers' ids once there are {@code wanted}; throws after {@code waitMs}. */
        static List<Integer> awaitUnfenced(Admin admin, int wanted, long waitMs, int timeoutMs) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
            List<Integer> unfenced = List.of();
            while (System.nanoTime() < deadline) {
                try {
                    unfenced = Brokers.list(admin, timeoutMs).stream().filter(n -> !n.isFenced()).map(Node::id)
                            .sorted().toList();
                } catch (ExecutionException e) {
                    unfenced = List.of();
                }
                if (unfenced.size() >= wanted) {
                    return unfenced;
                }
                Thread.sleep(100);
            }
            throw new IllegalStateException(wanted + " unfenced brokers wanted, the cluster has " + unfenced
                    + " after " + waitMs + " ms; start one with bin/kafka-peer start");
        }

        String topicName(String workload, int index) {
            return runId + "-" + workload + "-" + index;
        }

        /** Creates the topics, waiting for every future; fails unless each was created. */
        void create(List<NewTopic> topics) throws InterruptedException {
            Map<String, KafkaFuture<Void>> futures = admin.createTopics(topics,
                    new CreateTopicsOptions().timeoutMs(timeoutMs)).values();
            List<String> failures = new ArrayList<>();
            int createdByCutOffAttempt = 0;
            for (KafkaFuture<Void> future : futures.values()) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException) {
                        // Names carry this run's id: only an earlier attempt of this call, retried by the
                        // Admin client after a controller change, can have made it.
                        createdByCutOffAttempt++;
                    } else {
                        failures.add(describe(e));
                    }
                }
            }
            requireNone("CreateTopics", failures, futures.size());
            if (createdByCutOffAttempt > 0) {
                System.out.printf("# %d of %d topics already existed on the admin client's retry%n",
                        createdByCutOffAttempt, futures.size());
            }
        }

        /** Deletes the named topics, waiting for every future; fails unless each was deleted. */
        void delete(List<String> names) throws InterruptedException {
            Map<String, KafkaFuture<Void>> futures = admin.deleteTopics(names,
                    new DeleteTopicsOptions().timeoutMs(timeoutMs)).topicNameValues();
            List<String> failures = new ArrayList<>();
            for (KafkaFuture<Void> future : futures.values()) {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    failures.add(describe(e));
                }
            }
            requireNone("DeleteTopics", failures, futures.size());
        }

        private static void requireNone(String call, List<String> failures, int total) {
            if (!failures.isEmpty()) {
                throw new IllegalStateException(call + ": " + failures.size() + " of " + total + " failed, first "
                        + failures.get(0));
            }
        }

        @Override
        public void close() {
            admin.close();
        }
    }

    /** {@code brokers}: the registered brokers with their fenced state, one line each, as mq-metadata brokers. */
    static final class Brokers {
        static Collection<Node> list(Admin admin, int timeoutMs) throws Exception {
            return admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true).timeoutMs(timeoutMs))
                    .nodes().get();
        }

        static void run(Options options) throws Exception {
            try (Admin admin = Session.connect(options)) {
                int wanted = options.get("--min-unfenced");
                if (wanted > 0) {
                    Session.awaitUnfenced(admin, wanted, options.timeoutMs(), Math.toIntExact(options.timeoutMs()));
                }
                List<Node> nodes = new ArrayList<>(list(admin, Math.toIntExact(options.timeoutMs())));
                nodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
                for (Node node : nodes) {
                    System.out.printf("\tBroker: %d\tEndpoint: %s:%d\tRack: %s\tState: %s%n", node.id(), node.host(),
                            node.port(), node.hasRack() ? node.rack() : "-", node.isFenced() ? "fenced" : "unfenced");
                }
            }
        }
    }

    /** mq-bench create-topics: sequential CreateTopics of {@code --batch} topics each. */
    static final class CreateTopics {
        static void run(Session session, Options options) throws Exception {
            int topics = options.get("--topics");
            int partitions = options.get("--partitions");
            int replicationFactor = options.get("--replication-factor");
            int batch = options.get("--batch");
            System.out.printf("# create-topics: %d topics x %d partitions x RF %d, sequential batches of %d,"
                    + " timeout_ms > 0 (answered once committed)%n", topics, partitions, replicationFactor, batch);
            Histogram batchMicros = AdminFigures.latencyMicros();
            int next = 0;
            long start = System.nanoTime();
            for (int size : AdminFigures.batches(topics, batch)) {
                List<NewTopic> request = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    request.add(new NewTopic(session.topicName("ct", next++), partitions, (short) replicationFactor));
                }
                long batchStart = System.nanoTime();
                session.create(request);
                AdminFigures.recordSince(batchMicros, batchStart);
            }
            long total = System.nanoTime() - start;
            System.out.println(AdminFigures.seconds("create_topics_total_s", total / 1e9));
            System.out.println(AdminFigures.rate("create_topics_partitions_per_s",
                    AdminFigures.perSecond((long) topics * partitions, total), "partitions/s"));
            System.out.println(AdminFigures.ms("create_topics_batch_p50_ms",
                    AdminFigures.percentileMs(batchMicros, 50)));
            System.out.println(AdminFigures.ms("create_topics_batch_p99_ms",
                    AdminFigures.percentileMs(batchMicros, 99)));
        }
    }

    /** mq-bench create-one: sequential creates of one topic (1 partition, RF 3) after unmeasured ones. */
    static final class CreateOne {
        static void run(Session session, Options options) throws Exception {
            int count = options.get("--count");
            int warmup = options.get("--warmup");
            System.out.printf("# create-one: %d sequential creates of 1 topic (1 partition, RF 3, timeout_ms > 0)"
                    + " after %d unmeasured ones%n", count, warmup);
            for (int i = 0; i < warmup; i++) {
                session.create(List.of(new NewTopic(session.topicName("w1", i), 1, (short) 3)));
            }
            Histogram micros = AdminFigures.latencyMicros();
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                session.create(List.of(new NewTopic(session.topicName("c1", i), 1, (short) 3)));
                AdminFigures.recordSince(micros, start);
            }
            System.out.println(AdminFigures.ms("create_one_p50_ms", AdminFigures.percentileMs(micros, 50)));
            System.out.println(AdminFigures.ms("create_one_p99_ms", AdminFigures.percentileMs(micros, 99)));
            System.out.println(AdminFigures.ms("create_one_max_ms", AdminFigures.maxMs(micros)));
        }
    }

    /**
     * mq-bench describe-all: every topic described, {@code --runs} times after {@code --warmup}
     * unmeasured calls; the median. Kafka's Admin has no "describe all": each call is a
     * ListTopics (internal topics included) and a DescribeTopics of the names it returned, timed
     * together; the Admin client sends the latter as DescribeTopicPartitions requests, paged.
     */
    static final class DescribeAll {
        static void run(Session session, Options options) throws Exception {
            int runs = options.get("--runs");
            int warmup = options.get("--warmup");
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
            StringBuilder note = new StringBuilder(String.format(Locale.ROOT,
                    "# describe-all: %d topics, %d partitions (ListTopics, then DescribeTopics of them); median of %d"
                            + " calls after %d unmeasured; calls (ms):", described.size(), partitions, runs, warmup));
            times.forEach(t -> note.append(String.format(Locale.ROOT, " %.2f", t)));
            System.out.println(note);
            System.out.println(AdminFigures.ms("describe_all_ms", AdminFigures.median(times)));
        }

        static Map<String, TopicDescription> describeAll(Session session) throws Exception {
            Set<String> names = session.admin.listTopics(new ListTopicsOptions().listInternal(true)
                    .timeoutMs(session.timeoutMs)).names().get();
            return session.admin.describeTopics(names, new DescribeTopicsOptions().timeoutMs(session.timeoutMs))
                    .allTopicNames().get();
        }
    }

    /** mq-bench delete-topics: creates the topics unmeasured, then deletes them by name in sequential batches. */
    static final class DeleteTopics {
        static void run(Session session, Options options) throws Exception {
            int count = options.get("--count");
            int batch = options.get("--batch");
            int partitions = options.get("--partitions");
            List<List<String>> batches = new ArrayList<>();
            int next = 0;
            for (int size : AdminFigures.batches(count, batch)) {
                List<String> names = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    names.add(session.topicName("dt", next++));
                }
                session.create(names.stream().map(n -> new NewTopic(n, partitions, (short) 3)).toList());
                batches.add(names);
            }
            System.out.printf("# delete-topics: created %d topics (%d partition(s), RF 3); deleting them by name"
                    + " in sequential batches of %d%n", count, partitions, batch);
            Histogram batchMicros = AdminFigures.latencyMicros();
            long start = System.nanoTime();
            for (List<String> names : batches) {
                long batchStart = System.nanoTime();
                session.delete(names);
                AdminFigures.recordSince(batchMicros, batchStart);
            }
            long total = System.nanoTime() - start;
            System.out.printf(Locale.ROOT, "# deleted %d topics in %.3f s; batch p50 %.2f ms, max %.2f ms%n", count,
                    total / 1e9, AdminFigures.percentileMs(batchMicros, 50), AdminFigures.maxMs(batchMicros));
            System.out.println(AdminFigures.rate("delete_topics_per_s", AdminFigures.perSecond(count, total),
                    "topics/s"));
        }
    }
}
