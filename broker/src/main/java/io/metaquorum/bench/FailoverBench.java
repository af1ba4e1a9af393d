package io.metaquorum.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench failover}: on a running cluster made by mq-quickstart, kills the leader's
 * process (kill -9, by the pid in its server.pid) and measures, with an in-process
 * DescribeQuorum client, the time to a new leader and to the first committed append of the
 * new epoch (the new leader's LeaderChange record: the high watermark passes every offset
 * committed before the kill only once an entry of the new epoch is on a majority); restarts
 * the killed node and waits until it has caught up; then the same with SIGTERM (graceful
 * handoff). Prints the medians over the tries.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Leader failover times on a running mq-quickstart cluster (kill -9, then SIGTERM).")
final class FailoverBench implements Callable<Integer> {
    private static final long PROBE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long STEP_TIMEOUT_MS = 60_000;

    @Option(names = "--bootstrap-controller", required = true, description = "H:P of any controller")
    String bootstrapController;

    @Option(names = "--data-dir", required = true, description = "the cluster's data directory (mq-quickstart's)")
    Path dataDir;

    @Option(names = "--tries", description = "kills and handoffs to measure, each (default 3)")
    int tries = 3;

    @Override
    public Integer call() throws Exception {
        if (tries <= 0) {
            throw new IllegalArgumentException("--tries must be > 0");
        }
        Map<Integer, Path> nodes = controllerConfigs();
        Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
        for (Map.Entry<Integer, Path> node : nodes.entrySet()) {
            addresses.put(node.getKey(), listenerOf(node.getValue()));
        }
        List<Long> newLeader = new ArrayList<>();
        List<Long> firstWrite = new ArrayList<>();
        List<Long> handoff = new ArrayList<>();
        try (QuorumProbe probe = new QuorumProbe(addresses)) {
            ClusterNodes cluster = new ClusterNodes(nodes, probe);
            for (int i = 0; i < tries; i++) {
                long[] times = cluster.measureKill();
                newLeader.add(times[0]);
                firstWrite.add(times[1]);
                System.out.printf("# kill -9 try %d: new leader %d ms, first committed append %d ms%n", i + 1,
                        times[0], times[1]);
            }
            for (int i = 0; i < tries; i++) {
                long ms = cluster.measureHandoff();
                handoff.add(ms);
                System.out.printf("# SIGTERM try %d: new leader %d ms%n", i + 1, ms);
            }
            cluster.awaitHealthy();
        }
        System.out.printf("failover_new_leader_ms %d ms%n", median(newLeader));
        System.out.printf("failover_first_write_ms %d ms%n", median(firstWrite));
        System.out.printf("handoff_new_leader_ms %d ms%n", median(handoff));
        return 0;
    }

    private Map<Integer, Path> controllerConfigs() throws IOException {
        Map<Integer, Path> nodes = new TreeMap<>();
        try (var dirs = Files.list(dataDir)) {
            for (Path dir : dirs.sorted().toList()) {
                Path config = dir.resolve("server.properties");
                if (Files.isRegularFile(config)) {
                    Properties props = load(config);
                    if (props.getProperty("process.roles", "").contains("controller")) {
                        nodes.put(Integer.parseInt(props.getProperty("node.id").trim()), config);
                    }
                }
            }
        }
        if (nodes.size() < 3) {
            throw new IllegalArgumentException("found " + nodes.size() + " controllers under " + dataDir
                    + "; start a cluster with bin/mq-quickstart first");
        }
        return nodes;
    }

    static Properties load(Path file) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        }
        return props;
    }

    private static InetSocketAddress listenerOf(Path config) throws IOException {
        String listener = load(config).getProperty("listeners").trim();
        int colon = listener.lastIndexOf(':');
        return new InetSocketAddress(listener.substring(0, colon), Integer.parseInt(listener.substring(colon + 1)));
    }

    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Long::compare);
        return sorted.get(sorted.size() / 2);
    }

    static void pause() {
        LockSupport.parkNanos(PROBE_INTERVAL_NANOS);
    }

    static long stepDeadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STEP_TIMEOUT_MS);
    }
}
