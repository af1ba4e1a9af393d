package io.metaquorum.process;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.StatusRuntimeException;
import io.metaquorum.common.io.Directories;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.process.MetaquorumScripts.RunningTool;
import io.metaquorum.process.MetaquorumScripts.ToolRun;
import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.DescribeClusterResponse;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribedBroker;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.server.ClusterIds;
import io.metaquorum.server.InitialControllers;
import io.metaquorum.net.HostPort;
import io.metaquorum.server.ListenersFile;
import io.metaquorum.server.ServerConfig;
import io.metaquorum.server.StorageFormatter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Three controllers (node ids 1-3) run by the real {@code bin/mq-server} on 127.0.0.1, each
 * in its own JVM, for one test: the voters on ports chosen in advance ({@link PreassignedPorts}),
 * any brokers on port 0 (each reports the port it got), a fresh cluster id, every node's
 * {@code metadata.log.dir} formatted, all three started.
 *
 * <p>It starts, kills (SIGKILL), stops (SIGTERM), pauses (SIGSTOP) and resumes (SIGCONT)
 * nodes by pid, asks them for their view
 * of the quorum through DescribeQuorum (what {@code mq-metadata quorum} does), waits for
 * conditions with a deadline ({@link #await}: a node that exits unexpectedly fails the wait
 * at once), and dumps stopped nodes' logs with {@code bin/mq-metadata dump --json}.
 *
 * <p>{@link #close} continues every paused process and kills every process it started, by pid, copies the nodes' server.log
 * files to {@code target/process-test-logs/NAME/} for diagnosis and deletes the
 * directory. A JVM shutdown hook does the killing too, should the test JVM exit early.
 */
final class ControllerCluster implements AutoCloseable {
    /** Bound of every wait: generous for a loaded 2-core CI machine, far beyond any healthy path. */
    static final long WAIT_MS = 60_000;
    static final List<Integer> NODE_IDS = List.of(1, 2, 3);
    private static final long DESCRIBE_TIMEOUT_MS = 2_000;

    private final String name;
    private final Path directory;
    private final String clusterId;
    private final MetaquorumScripts scripts;
    private final Map<Integer, ControllerProcess> nodes;
    /** Nodes that must be running: one that exits fails every wait. */
    private final Set<Integer> expectedRunning = new TreeSet<>();
    private final Thread killOnExit;
    private final AtomicReference<String> lastObservation = new AtomicReference<>("nothing yet");
    private final ChannelCredentials clientCredentials;

    /**
     * A secure cluster's TLS: the listener's name prefix ({@code SSL://}), each node's own
     * settings (its key store), and what the test's own clients connect with.
     */
    record Tls(String listenerPrefix, Function<Integer, Map<String, String>> nodeSettings,
               ChannelCredentials client) {
        static final Tls NONE = new Tls("", id -> Map.of(), InsecureChannelCredentials.create());
    }

    private ControllerCluster(String name, Path directory, String clusterId, MetaquorumScripts scripts,
                              Map<Integer, ControllerProcess> nodes, ChannelCredentials clientCredentials) {
        this.clientCredentials = clientCredentials;
        this.name = name;
        this.directory = directory;
        this.clusterId = clusterId;
        this.scripts = scripts;
        this.nodes = nodes;
        this.killOnExit = new Thread(() -> nodes.values().forEach(ControllerProcess::destroy),
                "kill-controllers-" + name);
    }

    /**
     * Formats and starts three controllers with {@code settings} added to each node's
     * properties; returns once every node wrote its pid file and every node on port 0 its
     * port (not once a leader is elected).
     *
     * @param name names the log directory under target/process-test-logs
     */
    static ControllerCluster start(String name, Map<String, String> settings) {
        return start(name, settings, 0);
    }

    /**
     * As {@link #start(String, Map)}, plus {@code brokers} brokers (node ids 4, 5, …,
     * {@code process.roles=broker}, {@code log.dirs} = {@code node-N/logs}).
     */
    static ControllerCluster start(String name, Map<String, String> settings, int brokers) {
        return start(name, settings, brokers, false);
    }

    /** Three nodes with {@code process.roles=controller,broker} (combined mode), no other brokers. */
    static ControllerCluster startCombined(String name, Map<String, String> settings) {
        return start(name, settings, 0, true);
    }

    /** As {@link #start(String, Map, int)}, every listener with {@code tls}. */
    static ControllerCluster startSecure(String name, Map<String, String> settings, int brokers, Tls tls) {
        return start(name, settings, brokers, false, tls);
    }

    private static ControllerCluster start(String name, Map<String, String> settings, int brokers, boolean combined) {
        return start(name, settings, brokers, combined, Tls.NONE);
    }

    private static ControllerCluster start(String name, Map<String, String> settings, int brokers, boolean combined,
                                           Tls tls) {
        ControllerCluster cluster = create(name, settings, brokers, combined, tls);
        try {
            cluster.startAll();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static ControllerCluster create(String name, Map<String, String> settings, int brokers,
                                            boolean combined, Tls tls) {
        try {
            Path directory = Files.createTempDirectory("mq-process-");
            int voterPortBase = PreassignedPorts.freeBase(NODE_IDS.size());
            Map<Integer, ControllerProcess> nodes = new TreeMap<>();
            for (int id = 1; id <= NODE_IDS.size() + brokers; id++) {
                int port = NODE_IDS.contains(id) ? voterPortBase + id : 0;
                nodes.put(id, new ControllerProcess(id, new HostPort("127.0.0.1", port),
                        Files.createDirectories(directory.resolve("node-" + id))));
            }
            String voters = nodes.values().stream().filter(n -> NODE_IDS.contains(n.nodeId()))
                    .map(n -> n.nodeId() + "@" + n.configuredListener()).collect(Collectors.joining(","));
            String clusterId = ClusterIds.random();
            // KIP-853: the controllers are formatted as Kafka's --initial-controllers, with directory ids.
            String initial = nodes.values().stream().filter(n -> NODE_IDS.contains(n.nodeId()))
                    .map(n -> n.nodeId() + "@" + n.configuredListener() + ":" + ClusterIds.random())
                    .collect(Collectors.joining(","));
            for (ControllerProcess node : nodes.values()) {
                Map<String, String> nodeSettings = new LinkedHashMap<>(settings);
                nodeSettings.putAll(tls.nodeSettings().apply(node.nodeId()));
                writeConfig(node, voters, nodeSettings, NODE_IDS.contains(node.nodeId()), combined,
                        tls.listenerPrefix());
                ServerConfig config = ServerConfig.load(node.configFile());
                StorageFormatter.format(config, clusterId, config.isController()
                        ? java.util.Optional.of(InitialControllers.parse(initial)) : java.util.Optional.empty(),
                        false, line -> { });
            }
            return new ControllerCluster(name, directory, clusterId, MetaquorumScripts.ofThisCheckout(), nodes,
                    tls.client());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeConfig(ControllerProcess node, String voters, Map<String, String> settings,
                                    boolean controller, boolean combined, String listenerPrefix) throws IOException {
        Map<String, String> properties = new LinkedHashMap<>();
        boolean broker = !controller || combined;
        properties.put("process.roles", controller && broker ? "controller,broker" : broker ? "broker" : "controller");
        properties.put("node.id", Integer.toString(node.nodeId()));
        properties.put("controller.quorum.voters", voters);
        properties.put("listeners", listenerPrefix + node.configuredListener());
        properties.put("metadata.log.dir", node.metadataDir().toString());
        if (broker) {
            properties.put("log.dirs", node.logDirs().toString());
        }
        properties.putAll(settings);
        StringBuilder text = new StringBuilder();
        properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Files.writeString(node.configFile(), text, StandardCharsets.UTF_8);
    }

    private void startAll() {
        Runtime.getRuntime().addShutdownHook(killOnExit);
        for (ControllerProcess node : nodes.values()) {
            node.launch(scripts);
            expectedRunning.add(node.nodeId());
        }
        for (ControllerProcess node : nodes.values()) {
            node.awaitStarted();
        }
    }

    String clusterId() {
        return clusterId;
    }

    /**
     * Formats a new controller {@code id} as an operator joining it to this quorum would
     * ({@code mq-storage format --no-initial-controllers}, its {@code controller.quorum.voters}
     * the first three), on a port of its own, and starts it: it fetches as an observer until
     * {@code mq-metadata add-controller} makes it a voter.
     */
    ControllerProcess startNewController(int id, Map<String, String> settings) {
        if (nodes.containsKey(id)) {
            throw new IllegalArgumentException("node " + id + " exists");
        }
        try {
            ControllerProcess node = new ControllerProcess(id, new HostPort("127.0.0.1", PreassignedPorts.freeBase(1) + 1),
                    Files.createDirectories(directory.resolve("node-" + id)));
            String voters = NODE_IDS.stream().map(n -> n + "@" + node(n).configuredListener())
                    .collect(Collectors.joining(","));
            writeConfig(node, voters, settings, true, false, "");
            ToolRun format = runTool("mq-storage", "format", "--config", node.configFile().toString(), "--cluster-id",
                    clusterId, "--no-initial-controllers");
            if (format.exitCode() != 0) {
                throw new AssertionError("mq-storage format of node " + id + " exited " + format.exitCode() + ": "
                        + format.err());
            }
            nodes.put(id, node);
            node.launch(scripts);
            expectedRunning.add(id);
            node.awaitStarted();
            return node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every node's listener, controllers first: any of them serves the admin API. */
    List<HostPort> addresses() {
        return nodes.values().stream().map(ControllerProcess::address).toList();
    }

    ControllerProcess node(int id) {
        ControllerProcess node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id);
        }
        return node;
    }

    /** Where node {@code id} serves its metrics and status page, once it wrote {@code server.metrics}. */
    HostPort metricsAddress(int id) {
        Path file = node(id).metricsFile();
        return await("node " + id + " reports its metrics port in " + file,
                () -> ListenersFile.read(file).map(listeners -> listeners.get(0)));
    }

    /** Waits until the controllers' image has {@code count} registered brokers, none of them fenced. */
    void awaitUnfencedBrokers(int count) {
        await(count + " unfenced brokers", () -> {
            try (AdminClient client = AdminClient.connect(addresses())) {
                DescribeClusterResponse cluster = client.describeCluster(DESCRIBE_TIMEOUT_MS);
                return Optional.of(cluster).filter(c -> c.getBrokersCount() == count
                        && c.getBrokersList().stream().noneMatch(DescribedBroker::getFenced));
            } catch (RuntimeException e) {
                lastObservation.set("DescribeCluster failed: " + e);
                return Optional.empty();
            }
        });
    }

    /** kill -9 of node {@code id} by pid; returns its exit status. */
    int killHard(int id) {
        expectedRunning.remove(id);
        return node(id).killHard();
    }

    /** SIGTERM of node {@code id} by pid; returns its exit status once it stopped. */
    int terminate(int id) {
        expectedRunning.remove(id);
        return node(id).terminate();
    }

    /** SIGSTOP of node {@code id} by pid: it freezes with its connections open; see {@link #resume}. */
    void pause(int id) {
        node(id).pause();
    }

    /** SIGCONT of node {@code id}, which {@link #pause} stopped. */
    void resume(int id) {
        node(id).resume();
    }

    /** The Raft timeouts every node runs with (the same properties for all three), as the nodes read them. */
    RaftTimeouts raftTimeouts() {
        return ServerConfig.load(node(NODE_IDS.get(0)).configFile()).raftTimeouts();
    }

    /** SIGTERM to every running node at once, then waits for each; returns the exit statuses by node id. */
    Map<Integer, Integer> terminateAll() {
        Map<Integer, Integer> exitCodes = new TreeMap<>();
        List<ControllerProcess> running = nodes.values().stream().filter(ControllerProcess::isRunning).toList();
        expectedRunning.clear();
        running.forEach(node -> node.signal(false));
        running.forEach(node -> exitCodes.put(node.nodeId(), node.awaitExit(WAIT_MS)));
        return exitCodes;
    }

    /**
     * Moves stopped controller {@code id} to {@code listener}, as an operator would: its own
     * {@code listeners} and its own entry in {@code controller.quorum.voters} change, no other
     * node's configuration does (they learn the new address from the voter set in the log).
     */
    void moveListener(int id, HostPort listener) {
        ControllerProcess node = node(id);
        String before = node.configuredListener().toString();
        try {
            List<String> lines = Files.readAllLines(node.configFile(), StandardCharsets.UTF_8);
            List<String> moved = new ArrayList<>();
            for (String line : lines) {
                if (line.startsWith("listeners=")) {
                    moved.add(line.replace(before, listener.toString()));
                } else if (line.startsWith("controller.quorum.voters=")) {
                    moved.add(line.replace(id + "@" + before, id + "@" + listener));
                } else {
                    moved.add(line);
                }
            }
            Files.write(node.configFile(), moved, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        node.moveTo(listener);
    }

    /**
     * Starts node {@code id} again (same directory and configuration; a voter keeps its port, a
     * node on port 0 gets a new one); it must keep running.
     */
    void restart(int id) {
        node(id).start(scripts);
        expectedRunning.add(id);
    }

    /** Starts node {@code id} again when the test expects it to stop by itself. */
    void restartExpectingExit(int id) {
        node(id).launch(scripts);
    }

    /** One node's DescribeQuorum answer; empty if it does not answer (stopped, starting, overloaded). */
    Optional<DescribeQuorumResponse> describe(int id) {
        try (QuorumClient client = new QuorumClient(node(id).address().toAddress(),
                DESCRIBE_TIMEOUT_MS, clientCredentials)) {
            return Optional.of(client.describeMetadataQuorum());
        } catch (StatusRuntimeException e) {
            return Optional.empty();
        }
    }

    /** The metadata partition of one node's answer; empty if it did not answer with one. */
    Optional<DescribeQuorumPartitionResponse> describePartition(int id) {
        return describe(id).filter(r -> r.getErrorCode() == ErrorCode.NONE && r.getTopicsCount() == 1
                && r.getTopics(0).getPartitionsCount() == 1).map(r -> r.getTopics(0).getPartitions(0));
    }

    /**
     * The report of whichever running node answers DescribeQuorum as the leader; empty if none
     * does. Paused nodes are not asked: they would only time out.
     */
    Optional<QuorumReport> leaderReport() {
        for (ControllerProcess node : nodes.values()) {
            if (!node.isRunning() || node.isPaused()) {
                continue;
            }
            Optional<DescribeQuorumResponse> answer = describe(node.nodeId());
            if (answer.isPresent() && answer.get().getErrorCode() == ErrorCode.NONE
                    && answer.get().getTopicsCount() == 1 && answer.get().getTopics(0).getPartitionsCount() == 1
                    && answer.get().getTopics(0).getPartitions(0).getErrorCode() == ErrorCode.NONE) {
                QuorumReport report = QuorumReport.from(answer.get());
                lastObservation.set("leader report " + report);
                return Optional.of(report);
            }
        }
        lastObservation.set("no running node answered DescribeQuorum as the leader");
        return Optional.empty();
    }

    /** Waits for a leader whose report satisfies {@code condition}; returns that report. */
    QuorumReport awaitLeaderReport(String what, Predicate<QuorumReport> condition) {
        return await(what, () -> leaderReport().filter(condition));
    }

    /** Waits until every voter's log end offset, as the leader reports it, reaches the leader's high watermark. */
    QuorumReport awaitAllCaughtUp(String what, long highWatermarkAtLeast) {
        return awaitLeaderReport(what, report -> report.highWatermark() >= highWatermarkAtLeast
                && report.voters().size() == NODE_IDS.size()
                && report.voters().stream().allMatch(v -> v.logEndOffset() >= report.highWatermark()));
    }

    /**
     * Polls {@code probe} until it returns a value, at most {@link #WAIT_MS}; fails at once if
     * a node that should run has exited, and with every node's log tail on timeout.
     */
    <T> T await(String what, Supplier<Optional<T>> probe) {
        return BoundedWait.until(what, WAIT_MS, () -> {
            requireExpectedNodesRunning();
            return probe.get();
        }, this::diagnostics);
    }

    private void requireExpectedNodesRunning() {
        for (int id : expectedRunning) {
            ControllerProcess node = node(id);
            if (!node.isRunning()) {
                throw new AssertionError("node " + id + " exited unexpectedly with " + node.exitCode().orElse(-1)
                        + "\n" + diagnostics());
            }
        }
    }

    /** What was last observed and the tail of every node's log. */
    String diagnostics() {
        return "last observed: " + lastObservation.get() + "\n" + nodes.values().stream()
                .map(ControllerProcess::logTail).collect(Collectors.joining("\n"));
    }

    /** Every role change every node logged so far, node by node. */
    List<RoleChange> roleChanges() {
        return nodes.values().stream().flatMap(n -> RoleChange.parse(n.logSince(0)).stream()).toList();
    }

    /** Election safety across the processes' own logs: no epoch ever had two leaders. */
    Map<Integer, Set<Integer>> leadersByEpoch() {
        Map<Integer, Set<Integer>> leaders = new TreeMap<>();
        for (RoleChange change : roleChanges()) {
            if (change.toRole().equals("LEADER")) {
                leaders.computeIfAbsent(change.toEpoch(), epoch -> new TreeSet<>()).add(change.nodeId());
            }
        }
        return leaders;
    }

    /**
     * {@code bin/mq-metadata dump --data-dir DIR --json} of the given stopped nodes, run
     * side by side; each must succeed.
     */
    List<DumpedLog> dump(List<Integer> ids) {
        List<RunningTool> runs = new ArrayList<>();
        for (int id : ids) {
            if (node(id).isRunning()) {
                throw new IllegalStateException("node " + id + " runs: dump reads a stopped node's log");
            }
            runs.add(scripts.startTool(directory.resolve("tools"), "dump-node-" + id + "-" + System.nanoTime(),
                    "mq-metadata", "dump", "--data-dir", node(id).metadataDir().toString(), "--json"));
        }
        List<DumpedLog> logs = new ArrayList<>();
        try {
            for (int i = 0; i < ids.size(); i++) {
                ToolRun run = runs.get(i).await(WAIT_MS);
                if (run.exitCode() != 0) {
                    throw new AssertionError("mq-metadata dump of node " + ids.get(i) + " exited " + run.exitCode()
                            + ": " + run.err());
                }
                logs.add(DumpedLog.parse(ids.get(i), run.out()));
            }
        } finally {
            runs.forEach(run -> run.process().destroyForcibly());
        }
        return logs;
    }

    /** Runs {@code bin/SCRIPT ARGS...} to its end. */
    ToolRun runTool(String script, String... args) {
        return scripts.runTool(directory.resolve("tools"), script + "-" + System.nanoTime(), WAIT_MS, script, args);
    }

    /** Continues paused processes and kills every process by pid, keeps the logs under target/process-test-logs/NAME and deletes the directory. */
    @Override
    public void close() {
        nodes.values().forEach(ControllerProcess::destroy);
        expectedRunning.clear();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException | IllegalArgumentException shuttingDownOrNeverAdded) {
            // Nothing to remove.
        }
        keepLogs();
        Directories.deleteRecursively(directory);
    }

    private void keepLogs() {
        Path target = Path.of(System.getProperty("user.dir"), "target", "process-test-logs", name);
        try {
            Files.createDirectories(target);
            for (ControllerProcess node : nodes.values()) {
                if (Files.exists(node.logFile())) {
                    Files.copy(node.logFile(), target.resolve("node-" + node.nodeId() + ".log"),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            System.err.println("could not keep the node logs in " + target + ": " + e);
        }
    }
}
