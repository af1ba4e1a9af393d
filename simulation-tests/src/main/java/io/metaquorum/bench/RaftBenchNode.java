package io.metaquorum.bench;

import com.google.protobuf.ByteString;
import io.metaquorum.common.fault.ProcessTerminatingFaultHandler;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.raft.RaftConfig;
import io.metaquorum.raft.RaftLimits;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.AppendResult;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.driver.RaftDriver;
import io.metaquorum.server.metrics.NodeMetrics;
import io.metaquorum.raft.transport.grpc.GrpcConnectionSettings;
import io.metaquorum.raft.transport.grpc.GrpcRaftTransport;
import io.metaquorum.raft.transport.grpc.GrpcTransportConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One controller of the raft-append benchmark, in its own JVM (like Kafka's TestRaftServer):
 * the production driver, gRPC transport and RocksDB log, with the load generated inside
 * the process once it leads. The leader prints the figures as {@code RESULT name value unit}
 * lines; every node exits by itself after warm-up + duration + a grace period.
 *
 * <p>With metrics on, the node's state machine is wrapped and its raft status bound as a
 * node with {@code metrics.listener} has them ({@link NodeMetrics}), and the registry is
 * scraped once a second on a thread of its own, as a Prometheus server would over HTTP.
 *
 * <p>Arguments: id voters(1@host:port,...) dataDir throughput recordBytes warmupS durationS lingerMs
 * metrics(on|off)
 */
public final class RaftBenchNode {
    static final String METRICS_ON = "on";
    static final String METRICS_OFF = "off";
    private static final long GRACE_S = 30;
    private static final long SCRAPE_INTERVAL_MS = 1_000;

    private RaftBenchNode() {
    }

    public static void main(String[] args) throws Exception {
        int id = Integer.parseInt(args[0]);
        Map<Integer, InetSocketAddress> voters = parseVoters(args[1]);
        Path dir = Path.of(args[2]);
        BenchLoad load = new BenchLoad(Long.parseLong(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                Integer.parseInt(args[6]));
        int lingerMs = Integer.parseInt(args[7]);
        RaftTimeouts defaults = RaftTimeouts.DEFAULTS;
        RaftTimeouts timeouts = new RaftTimeouts(defaults.electionTimeoutMs(), defaults.fetchTimeoutMs(),
                defaults.electionBackoffMaxMs(), lingerMs, defaults.requestTimeoutMs(), defaults.retryBackoffMs(),
                defaults.fetchWaitMsMax());
        RaftConfig config = new RaftConfig("raft-bench", id, new ArrayList<>(voters.keySet()), timeouts,
                RaftLimits.DEFAULTS).validate();
        CommitLatencyRecorder recorder = new CommitLatencyRecorder();
        boolean metricsOn = args[8].equals(METRICS_ON);
        NodeMetrics metrics = metricsOn ? NodeMetrics.on(id) : NodeMetrics.off(id);
        AtomicReference<RaftNode> node = new AtomicReference<>();
        metrics.bindRaft(node::get);
        ScheduledExecutorService scraper = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "metrics-scraper");
            thread.setDaemon(true);
            return thread;
        });
        if (metricsOn) {
            scraper.scheduleAtFixedRate(() -> metrics.registry().scrape(), SCRAPE_INTERVAL_MS, SCRAPE_INTERVAL_MS,
                    TimeUnit.MILLISECONDS);
        }
        try (MetadataLogStore store = MetadataLogStore.open(dir)) {
            GrpcTransportConfig transport = new GrpcTransportConfig(id, List.of(voters.get(id)), voters,
                    timeouts.requestTimeoutMs(), GrpcConnectionSettings.DEFAULTS);
            RaftDriver driver = new RaftDriver(config, store.raftLog(), store.quorumStateStore(),
                    GrpcRaftTransport.factory(transport, List.of()), metrics.raftListener(recorder), SystemTime.INSTANCE,
                    new ProcessTerminatingFaultHandler(), id);
            node.set(driver);
            driver.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(load.warmupS() + load.durationS() + GRACE_S);
            while (!driver.status().isLeader() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            if (driver.status().isLeader()) {
                runLoad(driver, recorder, load);
            } else {
                LockSupport.parkNanos(Math.max(0, deadline - System.nanoTime()));
            }
            driver.close();
        } finally {
            scraper.shutdownNow();
        }
    }

    /** What the leader offers: records/s (0 = as fast as it goes), their size, and the phases. */
    record BenchLoad(long throughput, int recordBytes, int warmupS, int durationS) {
    }

    private static void runLoad(RaftDriver driver, CommitLatencyRecorder recorder, BenchLoad load) {
        ByteString record = ByteString.copyFrom(new byte[load.recordBytes()]);
        long start = System.nanoTime();
        long measureStart = start + TimeUnit.SECONDS.toNanos(load.warmupS());
        long end = measureStart + TimeUnit.SECONDS.toNanos(load.durationS());
        long offered = 0;
        AtomicLong refused = new AtomicLong();
        LatencyIntervals intervals = new LatencyIntervals(recorder, start, measureStart);
        intervals.startReporter();
        LoadPacer pacer = new LoadPacer(load.throughput(), start);
        while (System.nanoTime() < end && driver.status().isLeader()) {
            long now = System.nanoTime();
            long accepted = offered - refused.get();
            int chunk = pacer.nextChunk(accepted, accepted - recorder.committedRecords(), now);
            if (chunk == 0) {
                LockSupport.parkNanos(pacer.parkNanos(accepted, now));
                continue;
            }
            long due = pacer.dueNanos(accepted, now);
            // Pipelined: the result may be registered before or after its commit is seen (see the recorder).
            CompletableFuture<AppendResult> append = driver.append(records(record, chunk));
            append.thenAccept(result -> {
                if (result.accepted()) {
                    recorder.onAppended(result.lastOffset(), chunk, due);
                } else {
                    refused.addAndGet(chunk);
                }
            });
            offered += chunk;
        }
        intervals.finish(System.nanoTime());
        report(intervals, load.durationS());
    }

    private static List<ByteString> records(ByteString record, int count) {
        List<ByteString> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add(record);
        }
        return records;
    }

    private static void report(LatencyIntervals intervals, int durationS) {
        Histogram latency = intervals.measured();
        System.out.printf("RESULT raft_append_records_per_s %d records/s%n", intervals.measuredCommits() / durationS);
        System.out.printf("RESULT raft_commit_p50_ms %.3f ms%n", latency.getValueAtPercentile(50) / 1000.0);
        System.out.printf("RESULT raft_commit_p99_ms %.3f ms%n", latency.getValueAtPercentile(99) / 1000.0);
        System.out.printf("RESULT raft_commit_max_ms %.3f ms%n", latency.getMaxValue() / 1000.0);
        System.out.printf("RESULT raft_commit_samples %d records%n", latency.getTotalCount());
        System.out.flush();
    }

    static Map<Integer, InetSocketAddress> parseVoters(String spec) {
        Map<Integer, InetSocketAddress> voters = new TreeMap<>();
        for (String voter : spec.split(",")) {
            String[] idAndAddress = voter.split("@");
            String[] hostAndPort = idAndAddress[1].split(":");
            voters.put(Integer.parseInt(idAndAddress[0]),
                    new InetSocketAddress(hostAndPort[0], Integer.parseInt(hostAndPort[1])));
        }
        return voters;
    }
}
