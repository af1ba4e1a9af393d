package io.metaquorum.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.protocol.Errors;

/**
 * {@link AdminBenchSession} for {@code --client kafka}: Kafka's own {@link Admin} client on a
 * Kafka bootstrap list (metaquorum's Kafka listener, or a Kafka cluster such as bin/kafka-peer
 * starts), a cluster with at least {@code --brokers} unfenced brokers, and the same run id and
 * topic names, so the two clients' runs differ in the client only.
 */
final class KafkaBenchSession implements AutoCloseable {
    private static final long UNFENCE_TIMEOUT_MS = 60_000;

    final Admin admin;
    final String runId;
    final int timeoutMs;

    private KafkaBenchSession(Admin admin, String runId, int timeoutMs) {
        this.admin = admin;
        this.runId = runId;
        this.timeoutMs = timeoutMs;
    }

    /** Connects and waits until the cluster shows {@code --brokers} brokers unfenced. */
    static KafkaBenchSession open(AdminBenchOptions options) throws Exception {
        options.validate();
        System.out.println(BenchClient.KAFKA.note());
        KafkaBenchSession session = new KafkaBenchSession(connect(options),
                AdminBenchSession.runId(System.currentTimeMillis()), Math.toIntExact(options.timeoutMs));
        try {
            List<Integer> unfenced = awaitUnfenced(session.admin, options.brokers, UNFENCE_TIMEOUT_MS,
                    session.timeoutMs);
            System.out.println("# run " + session.runId + ": unfenced brokers " + unfenced);
            return session;
        } catch (Exception e) {
            session.close();
            throw e;
        }
    }

    static Admin connect(AdminBenchOptions options) {
        return Admin.create(config(options));
    }

    /**
     * The Admin client's configuration: {@code --command-config}'s properties (security.protocol,
     * ssl.*, sasl.*), then the bootstrap list and {@code --timeout-ms} as the deadline of a call
     * and of one request.
     */
    static Properties config(AdminBenchOptions options) {
        Properties config = new Properties();
        if (options.commandConfig != null) {
            try (InputStream in = Files.newInputStream(options.commandConfig)) {
                config.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --command-config " + options.commandConfig, e);
            }
        }
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServer);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Math.toIntExact(options.timeoutMs));
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.toIntExact(options.timeoutMs));
        return config;
    }

    /** The registered brokers, fenced ones included. */
    static Collection<Node> brokers(Admin admin, int timeoutMs) throws Exception {
        return admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true).timeoutMs(timeoutMs))
                .nodes().get();
    }

    /** The unfenced brokers' ids once there are {@code wanted}; throws after {@code waitMs}. */
    static List<Integer> awaitUnfenced(Admin admin, int wanted, long waitMs, int timeoutMs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        List<Integer> unfenced = List.of();
        while (System.nanoTime() < deadline) {
            try {
                unfenced = brokers(admin, timeoutMs).stream().filter(n -> !n.isFenced()).map(Node::id).sorted()
                        .toList();
            } catch (ExecutionException e) {
                unfenced = List.of();
            }
            if (unfenced.size() >= wanted) {
                return unfenced;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(wanted + " unfenced brokers wanted, the cluster has " + unfenced
                + " after " + waitMs + " ms; start one with bin/mq-quickstart or bin/kafka-peer start");
    }

    String topicName(String workload, int index) {
        return AdminBenchSession.topicName(runId, workload, index);
    }

    static NewTopic topic(String name, int partitions, int replicationFactor) {
        return new NewTopic(name, partitions, (short) replicationFactor);
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

    /** The error code Kafka gives the failure first (as the gRPC path's failures read), then its message. */
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
