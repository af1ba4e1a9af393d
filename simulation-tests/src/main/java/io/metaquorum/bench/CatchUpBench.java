package io.metaquorum.bench;

import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.DescribedPartition;
import io.metaquorum.protocol.DescribedTopic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench catch-up}: a broker with a wiped disk joins a running cluster. Creates
 * {@code --partitions} partitions (topics of 50, RF {@code --replication-factor}), stops broker {@code --broker} with
 * SIGTERM, deletes its metadata log and partition directories (keeping only
 * {@code meta.properties}, as {@code mq-storage format} would write it again), starts it
 * again and measures from that start: ms until DescribeCluster shows it unfenced with a new
 * registration, and ms until every directory the image assigns it is on its disk.
 */
@Command(name = "catch-up", mixinStandardHelpOptions = true,
        description = "A broker with a wiped disk rejoins: ms until unfenced and until its directories are back.")
final class CatchUpBench implements Callable<Integer> {
    private static final int PARTITIONS_PER_TOPIC = 50;
    private static final int TOPICS_PER_REQUEST = 100;
    private static final long POLL_MS = 20;

    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--partitions", description = "partitions created first (default 20000)")
    int partitions = 20_000;

    @Option(names = "--replication-factor", description = "replicas of each partition created (default 3; 1 keeps a "
            + "million-partition run to one directory per partition on the one disk of a single-machine cluster)")
    int replicationFactor = 3;

    @Option(names = "--broker", description = "the broker to wipe and restart (default: the highest broker id)")
    Integer broker;

    @Option(names = "--data-dir", description = "the cluster's data directory (default ./quickstart-data)")
    Path dataDir = Path.of("quickstart-data");

    @Override
    public Integer call() throws Exception {
        AdminBenchOptions.requirePositive("--partitions", partitions);
        AdminBenchOptions.requirePositive("--replication-factor", replicationFactor);
        BrokerLogDirs dirs = BrokerLogDirs.under(dataDir);
        int id = broker != null ? broker : dirs.brokerIds().get(dirs.brokerIds().size() - 1);
        if (dirs.config(id) == null) {
            throw new IllegalArgumentException("no broker " + id + " under " + dataDir + "; brokers: " + dirs.brokerIds());
        }
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            List<String> topics = createTopics(session);
            List<String> expected = assignedTo(session, topics, id);
            long oldEpoch = brokerOf(session, id).map(DescribedBroker::getBrokerEpoch).orElse(-1L);
            System.out.printf("# broker %d holds %d of the %d partitions created; stopping and wiping it%n", id,
                    expected.size(), topics.size() * PARTITIONS_PER_TOPIC);
            ProcessHandle process = NodeProcesses.processOf(dirs.config(id));
            process.destroy();
            NodeProcesses.awaitExit(process);
            wipe(dirs, id);
            long start = System.nanoTime();
            NodeProcesses.start(dirs.config(id));
            long unfencedMs = awaitUnfenced(session, id, oldEpoch, start);
            long dirsMs = awaitDirectories(dirs, id, expected, start);
            System.out.println("catch_up_unfenced_ms " + unfencedMs + " ms");
            System.out.println("catch_up_dirs_ms " + dirsMs + " ms");
            System.out.printf("catch_up_dirs_per_s %.0f dirs/s%n", expected.size() * 1000.0 / Math.max(1, dirsMs));
        }
        return 0;
    }

    private List<String> createTopics(AdminBenchSession session) {
        int count = (partitions + PARTITIONS_PER_TOPIC - 1) / PARTITIONS_PER_TOPIC;
        List<String> names = new ArrayList<>();
        long start = System.nanoTime();
        for (int from = 0; from < count; from += TOPICS_PER_REQUEST) {
            List<CreatableTopic> batch = new ArrayList<>();
            for (int i = from; i < Math.min(count, from + TOPICS_PER_REQUEST); i++) {
                String name = session.topicName("cu", i);
                names.add(name);
                batch.add(AdminBenchSession.topic(name, PARTITIONS_PER_TOPIC, replicationFactor));
            }
            session.create(batch);
        }
        System.out.printf("# created %d topics of %d partitions (RF %d) in %d ms%n", count, PARTITIONS_PER_TOPIC,
                replicationFactor, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return names;
    }

    /** The {@code topic-partition} directory names the cluster assigns to broker {@code id}. */
    private static List<String> assignedTo(AdminBenchSession session, List<String> topics, int id) {
        List<String> expected = new ArrayList<>();
        for (int from = 0; from < topics.size(); from += TOPICS_PER_REQUEST) {
            List<String> batch = topics.subList(from, Math.min(topics.size(), from + TOPICS_PER_REQUEST));
            for (DescribedTopic topic : session.admin.describeTopics(AdminBenchSession.refs(batch), session.timeoutMs)) {
                for (DescribedPartition p : topic.getPartitionsList()) {
                    if (p.getReplicasList().contains(id)) {
                        expected.add(topic.getName() + "-" + p.getPartitionIndex());
                    }
                }
            }
        }
        return expected;
    }

    private static Optional<DescribedBroker> brokerOf(AdminBenchSession session, int id) {
        return session.admin.describeCluster(session.timeoutMs).getBrokersList().stream()
                .filter(b -> b.getBrokerId() == id).findFirst();
    }

    /** Deletes the broker's metadata log and log dirs, then puts back their meta.properties. */
    private static void wipe(BrokerLogDirs dirs, int id) throws IOException {
        Properties props = FailoverBench.load(dirs.config(id));
        List<Path> wiped = new ArrayList<>(dirs.logDirs(id));
        wiped.add(Path.of(props.getProperty("metadata.log.dir").trim()));
        byte[] meta = Files.readAllBytes(wiped.get(wiped.size() - 1).resolve("meta.properties"));
        for (Path dir : wiped) {
            try (Stream<Path> tree = Files.walk(dir)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
            Files.createDirectories(dir);
            Files.write(dir.resolve("meta.properties"), meta);
        }
    }

    private long awaitUnfenced(AdminBenchSession session, int id, long oldEpoch, long startNanos)
            throws InterruptedException {
        long deadline = startNanos + TimeUnit.MILLISECONDS.toNanos(options.timeoutMs);
        while (System.nanoTime() < deadline) {
            Optional<DescribedBroker> now = brokerOf(session, id);
            if (now.isPresent() && !now.get().getFenced() && now.get().getBrokerEpoch() != oldEpoch) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            }
            Thread.sleep(POLL_MS);
        }
        throw new IllegalStateException("broker " + id + " not unfenced with a new registration within "
                + options.timeoutMs + " ms");
    }

    private long awaitDirectories(BrokerLogDirs dirs, int id, List<String> expected, long startNanos)
            throws InterruptedException {
        long deadline = startNanos + TimeUnit.MILLISECONDS.toNanos(options.timeoutMs);
        int found = 0;
        while (System.nanoTime() < deadline) {
            while (found < expected.size() && present(dirs, id, expected.get(found))) {
                found++;
            }
            if (found == expected.size()) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            }
            Thread.sleep(POLL_MS);
        }
        throw new IllegalStateException("broker " + id + " has " + found + " of its " + expected.size()
                + " directories after " + options.timeoutMs + " ms");
    }

    private static boolean present(BrokerLogDirs dirs, int id, String name) {
        int dash = name.lastIndexOf('-');
        return dirs.has(id, name.substring(0, dash), Integer.parseInt(name.substring(dash + 1)));
    }
}
