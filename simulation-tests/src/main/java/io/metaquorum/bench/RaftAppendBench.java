package io.metaquorum.bench;

import io.metaquorum.common.io.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench raft-append}: starts its own 3-controller quorum (3 JVMs, loopback, the
 * RocksDB log with its WAL synced), generates load inside the leader, and prints committed
 * records/s and append-to-commit latency.
 */
@Command(name = "raft-append", mixinStandardHelpOptions = true,
        description = "Raft commit throughput and latency on a 3-controller quorum it starts itself.")
final class RaftAppendBench implements Callable<Integer> {
    @Option(names = "--throughput", description = "records/s offered; 0 = as fast as it goes (default 0)")
    long throughput;

    @Option(names = "--record-bytes", description = "bytes per record (default 100)")
    int recordBytes = 100;

    @Option(names = "--duration-s", description = "measured seconds (default 30)")
    int durationS = 30;

    @Option(names = "--warmup-s", description = "seconds before measuring (default 10)")
    int warmupS = 10;

    @Option(names = "--linger-ms", description = "controller.quorum.append.linger.ms (default 0: natural batching)")
    int lingerMs;

    @Option(names = "--data-dir", description = "where the 3 nodes keep their logs (default: a temporary directory)")
    Path dataDir;

    @Option(names = "--heap", description = "heap of each node JVM (default 1g)")
    String heap = "1g";

    @Option(names = "--metrics", description = "run each node with its metrics on, as metrics.listener does: the "
            + "metered state machine on the commit path, the raft gauges, the status page's history, and the "
            + "registry scraped once a second (default: off)")
    boolean metrics;

    @Option(names = "--node-jvm-option", description = "an extra JVM option for every node (repeatable), "
            + "e.g. -XX:StartFlightRecording=filename=node.jfr to profile")
    List<String> nodeJvmOptions = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (throughput < 0 || recordBytes <= 0 || durationS <= 0 || warmupS < 0 || lingerMs < 0) {
            throw new IllegalArgumentException("--throughput, --warmup-s and --linger-ms must be >= 0; "
                    + "--record-bytes and --duration-s > 0");
        }
        Path root = dataDir != null ? dataDir : Files.createTempDirectory("mq-bench-raft-");
        List<Integer> ports = ChildProcesses.freePorts(3);
        StringBuilder voters = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            voters.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(ports.get(i));
        }
        System.out.printf("# raft-append: 3 controllers on 127.0.0.1 ports %s, throughput %s, %d-byte records, "
                + "warm-up %d s, measured %d s, linger %d ms, metrics %s, logs in %s%n", ports,
                throughput == 0 ? "unbounded" : throughput + " records/s", recordBytes, warmupS, durationS, lingerMs,
                metrics ? "on" : "off", root);
        boolean reported = false;
        try (ChildProcesses children = new ChildProcesses()) {
            for (int id = 1; id <= 3; id++) {
                Path dir = root.resolve("node-" + id);
                Files.createDirectories(dir);
                // The same GC goal as bin/mq-server: G1 with 5 ms pauses halves the commit p99 at
                // 400,000 records/s against G1's default 200 ms goal (506 -> 113-206 ms, measured);
                // a pre-touched heap spares the first collections their page faults.
                List<String> jvm = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC",
                        "-XX:MaxGCPauseMillis=5", "-XX:+AlwaysPreTouch", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
                jvm.addAll(nodeJvmOptions);
                children.start(RaftBenchNode.class.getName(), jvm,
                        List.of(String.valueOf(id), voters.toString(), dir.toString(), String.valueOf(throughput),
                                String.valueOf(recordBytes), String.valueOf(warmupS), String.valueOf(durationS),
                                String.valueOf(lingerMs), metrics ? RaftBenchNode.METRICS_ON : RaftBenchNode.METRICS_OFF),
                        root.resolve("node-" + id + ".log"));
            }
            collect(children, root);
            reported = true;
            return 0;
        } finally {
            if (dataDir == null && reported) {
                Directories.deleteRecursively(root);
            }
        }
    }

    private void collect(ChildProcesses children, Path root) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupS + durationS + 60L);
        List<String> results = new ArrayList<>();
        while (results.size() < 5 && System.nanoTime() < deadline) {
            String line = children.lines().poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith("RESULT ")) {
                results.add(line.substring("RESULT ".length()));
            } else if (line != null && line.startsWith("PROGRESS ")) {
                System.out.println("# " + line.substring("PROGRESS ".length()));
            }
        }
        if (results.isEmpty()) {
            throw new IllegalStateException("no node reported figures; see the node logs under " + root);
        }
        results.forEach(System.out::println);
    }
}
