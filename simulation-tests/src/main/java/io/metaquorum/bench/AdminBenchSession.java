package io.metaquorum.bench;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.DeletableTopicResult;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.TopicRef;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What an admin workload runs against: an {@link AdminClient} on the bootstrap nodes of a
 * running cluster with at least {@code --brokers} unfenced brokers (bin/mq-quickstart makes
 * one with three), and a run id that prefixes every topic it creates, so runs repeat on the
 * same cluster without colliding.
 */
final class AdminBenchSession implements AutoCloseable {
    private static final int DELETE_CHUNK = 1_000;
    private static final long UNFENCE_TIMEOUT_MS = 60_000;

    final AdminClient admin;
    final String runId;
    final long timeoutMs;

    private AdminBenchSession(AdminClient admin, String runId, long timeoutMs) {
        this.admin = admin;
        this.runId = runId;
        this.timeoutMs = timeoutMs;
    }

    /** Connects and waits until the cluster shows {@code --brokers} brokers unfenced. */
    static AdminBenchSession open(AdminBenchOptions options) throws InterruptedException {
        options.validate();
        System.out.println(BenchClient.GRPC.note());
        AdminClient admin = AdminClient.connect(options.bootstrap(), options.security());
        AdminBenchSession session = new AdminBenchSession(admin, runId(System.currentTimeMillis()),
                options.timeoutMs);
        try {
            List<Integer> unfenced = session.awaitUnfencedBrokers(options.brokers);
            System.out.println("# run " + session.runId + ": unfenced brokers " + unfenced);
            return session;
        } catch (RuntimeException | InterruptedException e) {
            session.close();
            throw e;
        }
    }

    private List<Integer> awaitUnfencedBrokers(int wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(UNFENCE_TIMEOUT_MS);
        List<Integer> unfenced = List.of();
        while (System.nanoTime() < deadline) {
            unfenced = admin.describeCluster(timeoutMs).getBrokersList().stream().filter(b -> !b.getFenced())
                    .map(DescribedBroker::getBrokerId).toList();
            if (unfenced.size() >= wanted) {
                return unfenced;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(wanted + " unfenced brokers wanted, the cluster has " + unfenced
                + " after " + UNFENCE_TIMEOUT_MS + " ms; start a cluster with bin/mq-quickstart");
    }

    /** A run id from the start time: {@code b} and the milliseconds in base 36 (a valid topic name part). */
    static String runId(long epochMillis) {
        return "b" + Long.toString(epochMillis, 36);
    }

    /** The name of topic {@code index} of workload {@code workload} in this run. */
    String topicName(String workload, int index) {
        return topicName(runId, workload, index);
    }

    static String topicName(String runId, String workload, int index) {
        return runId + "-" + workload + "-" + index;
    }

    static CreatableTopic topic(String name, int partitions, int replicationFactor) {
        return CreatableTopic.newBuilder().setName(name).setNumPartitions(partitions)
                .setReplicationFactor(replicationFactor).build();
    }

    static List<TopicRef> refs(List<String> names) {
        return names.stream().map(n -> TopicRef.newBuilder().setName(n).build()).toList();
    }

    /** Creates {@code topics} (answered once committed) and fails unless every one was created. */
    void create(List<CreatableTopic> topics) {
        List<CreatableTopicResult> results = admin.createTopics(topics, false, timeoutMs);
        List<String> failures = new ArrayList<>();
        int createdByCutOffAttempt = 0;
        for (CreatableTopicResult result : results) {
            if (result.getErrorCode() == ErrorCode.TOPIC_ALREADY_EXISTS) {
                // Names carry this run's id, so only an earlier attempt of this very call, committed
                // but answered NOT_CONTROLLER or timed out by a controller change, can have made it.
                createdByCutOffAttempt++;
            } else if (result.getErrorCode() != ErrorCode.NONE) {
                failures.add(result.getErrorCode() + ": " + result.getErrorMessage());
            }
        }
        requireNone("CreateTopics", failures, results.size());
        if (createdByCutOffAttempt > 0) {
            System.out.printf("# %d of %d topics already existed on the admin client's retry (the first attempt was "
                    + "committed, then cut off by a controller change)%n", createdByCutOffAttempt, results.size());
        }
    }

    /**
     * Deletes {@code names} in requests of at most {@value #DELETE_CHUNK} topics: a cleanup may
     * hold more than one request may carry (the admin API's limit is 10,000 entries).
     */
    void deleteAll(List<String> names) {
        for (int from = 0; from < names.size(); from += DELETE_CHUNK) {
            delete(names.subList(from, Math.min(names.size(), from + DELETE_CHUNK)));
        }
    }

    /** Deletes the named topics and fails unless every one was deleted. */
    void delete(List<String> names) {
        List<DeletableTopicResult> results = admin.deleteTopics(refs(names), timeoutMs);
        List<String> failures = new ArrayList<>();
        for (DeletableTopicResult result : results) {
            if (result.getErrorCode() != ErrorCode.NONE) {
                failures.add(result.getErrorCode() + ": " + result.getErrorMessage());
            }
        }
        requireNone("DeleteTopics", failures, results.size());
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
