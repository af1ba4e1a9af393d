package io.metaquorum.bench;

import io.metaquorum.client.AdminClient;
import io.metaquorum.security.grpc.ClientSecurity;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.net.HostPort;
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
 * handoff). With {@code --mode pause} it stops the leader with SIGSTOP instead (its
 * connections stay open, so the followers learn of it only by their timeouts), measures the
 * time until another node answers DescribeQuorum as the leader of a higher epoch, and
 * continues the old leader with SIGCONT 6 s after the stop (later if no new leader had
 * appeared by then). {@code --mode} picks which of these run (default: kill -9, then SIGTERM).
 * After the kill -9 tries, as many more kill the leader and at once create a topic (1
 * partition, RF 3) through an admin client on every node, timing the kill to the create
 * acknowledged as committed ({@code failover_create_ms}; the cluster needs three unfenced
 * brokers). Prints the medians over the tries (and the pause mode's maximum).
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = "Leader failover times on a running mq-quickstart cluster (kill -9, SIGTERM, SIGSTOP).")
final class FailoverBench implements Callable<Integer> {
    private static final long PROBE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long STEP_TIMEOUT_MS = 60_000;
    /** How long {@code --mode pause} keeps the leader stopped at least (docs/commands.md: SIGSTOP for 6 s). */
    private static final long PAUSE_HOLD_MS = 6_000;

    @Option(names = "--bootstrap-controller", required = true, description = "H:P of any controller")
    String bootstrapController;

    @Option(names = "--data-dir", required = true, description = "the cluster's data directory (mq-quickstart's)")
    Path dataDir;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol=SSL, ssl.*) for a TLS cluster")
    Path commandConfig;

    @Option(names = "--tries", description = "tries of each failure measured (default 3)")
    int tries = 3;

    @Option(names = "--mode", converter = FailoverModes.Converter.class, paramLabel = "kill|term|pause|all",
            description = "kill (kill -9), term (SIGTERM), pause (SIGSTOP for 6 s, then SIGCONT) or all"
                    + " (default: kill, then term)")
    FailoverModes mode = FailoverModes.DEFAULT;

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
        FailoverFigures figures = new FailoverFigures();
        ClientSecurity security = commandConfig == null ? ClientSecurity.PLAINTEXT : ClientSecurity.load(commandConfig);
        try (QuorumProbe probe = new QuorumProbe(addresses, security.credentials())) {
            ClusterNodes cluster = new ClusterNodes(nodes, probe);
            for (int i = 0; mode.kill() && i < tries; i++) {
                long[] times = cluster.measureKill();
                System.out.println(figures.addKill(times[0], times[1]));
            }
            if (mode.kill()) {
                measureCreates(cluster, figures, security);
            }
            for (int i = 0; mode.term() && i < tries; i++) {
                System.out.println(figures.addHandoff(cluster.measureHandoff()));
            }
            for (int i = 0; mode.pause() && i < tries; i++) {
                System.out.println(figures.addPause(cluster.measurePause(PAUSE_HOLD_MS)));
            }
            cluster.awaitHealthy();
        }
        figures.figureLines().forEach(System.out::println);
        return 0;
    }

    /**
     * kill -9 then CreateTopics, {@code --tries} times, through an admin client on every node
     * of the cluster (a 1-partition RF-3 topic: the cluster needs three unfenced brokers).
     */
    private void measureCreates(ClusterNodes cluster, FailoverFigures figures, ClientSecurity security)
            throws IOException {
        List<HostPort> bootstrap = new ArrayList<>();
        for (Path config : nodeConfigs(role -> true).values()) {
            InetSocketAddress address = listenerOf(config);
            bootstrap.add(new HostPort(address.getHostString(), address.getPort()));
        }
        String runId = AdminBenchSession.runId(System.currentTimeMillis());
        try (AdminClient admin = AdminClient.connect(bootstrap, security)) {
            for (int i = 0; i < tries; i++) {
                CreatableTopic topic = AdminBenchSession.topic(AdminBenchSession.topicName(runId, "failover", i), 1, 3);
                System.out.println(figures.addKillCreate(cluster.measureKillThenCreate(admin, topic)));
            }
        }
    }

    private Map<Integer, Path> controllerConfigs() throws IOException {
        Map<Integer, Path> nodes = nodeConfigs(roles -> roles.contains("controller"));
        if (nodes.size() < 3) {
            throw new IllegalArgumentException("found " + nodes.size() + " controllers under " + dataDir
                    + "; start a cluster with bin/mq-quickstart first");
        }
        return nodes;
    }

    /** The properties files of the nodes under {@code --data-dir} whose process.roles pass {@code roles}. */
    private Map<Integer, Path> nodeConfigs(java.util.function.Predicate<String> roles) throws IOException {
        Map<Integer, Path> nodes = new TreeMap<>();
        try (var dirs = Files.list(dataDir)) {
            for (Path dir : dirs.sorted().toList()) {
                Path config = dir.resolve("server.properties");
                if (Files.isRegularFile(config)) {
                    Properties props = load(config);
                    if (roles.test(props.getProperty("process.roles", ""))) {
                        nodes.put(Integer.parseInt(props.getProperty("node.id").trim()), config);
                    }
                }
            }
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
        // A named listener (SSL://127.0.0.1:19091) is dialled at its address like a bare one.
        listener = listener.substring(listener.indexOf("://") + (listener.contains("://") ? 3 : 1));
        int colon = listener.lastIndexOf(':');
        return new InetSocketAddress(listener.substring(0, colon), Integer.parseInt(listener.substring(colon + 1)));
    }

    static void pause() {
        LockSupport.parkNanos(PROBE_INTERVAL_NANOS);
    }

    static long stepDeadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STEP_TIMEOUT_MS);
    }
}
