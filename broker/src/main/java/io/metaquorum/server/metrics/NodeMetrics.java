package io.metaquorum.server.metrics;

import io.metaquorum.metadata.loader.LoaderStatus;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.snapshot.thread.SnapshotWriterThread.SnapshotRegistration;
import io.metaquorum.net.HostPort;
import io.metaquorum.raft.RaftListener;
import io.metaquorum.raft.RaftNode;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.server.status.ImageCounts;
import io.metaquorum.server.status.StatusReport;
import io.metaquorum.server.status.StatusReport.StatusHistory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * A node's metrics (docs/metrics.md has every name): one Micrometer registry in the
 * Prometheus format, filled from the outside of the deterministic code. Gauges read what the
 * node already publishes (raft's {@link RaftStatus}, the loader's image and status, the
 * controller's active flag, the broker's partition directories) when a scrape asks; counters
 * and timers are moved per batch or per controller event by the wrappers this class hands
 * out ({@link #raftListener}, {@link #controllerLoop}, the snapshot ports).
 *
 * <p>Off ({@code metrics.listener} absent) there is no registry: every wrapper is the thing
 * it would wrap and every bind does nothing.
 */
public final class NodeMetrics {
    /** Histogram buckets of every timer, 100 us to 10 s. */
    static final Duration[] TIME_BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(250_000),
        Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500),
        Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final int nodeId;
    /** Null when off. */
    private final PrometheusMeterRegistry registry;
    private final SnapshotMetrics snapshots;
    /** What the status page shows of the past; null when off. */
    private final StatusHistory history;

    private NodeMetrics(int nodeId, PrometheusMeterRegistry registry) {
        this.nodeId = nodeId;
        this.registry = registry;
        this.snapshots = registry == null ? null : new SnapshotMetrics(registry);
        this.history = registry == null ? null : StatusHistory.empty();
    }

    /** Metrics off: nothing is recorded. */
    public static NodeMetrics off(int nodeId) {
        return new NodeMetrics(nodeId, null);
    }

    /** A registry for node {@code nodeId}, every series tagged {@code node_id}, with the JVM's own metrics. */
    public static NodeMetrics on(int nodeId) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("node_id", Integer.toString(nodeId));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        return new NodeMetrics(nodeId, registry);
    }

    public boolean isOn() {
        return registry != null;
    }

    /** Serves the registry and the status page of {@code report} on {@code address}; only when on. */
    public MetricsEndpoint serve(HostPort address, StatusReport report) {
        if (registry == null) {
            throw new IllegalStateException("metrics are off");
        }
        return MetricsEndpoint.start(address, registry, report, nodeId);
    }

    /** The leaders and commit latencies recorded for the status page; only when on. */
    public StatusHistory history() {
        if (history == null) {
            throw new IllegalStateException("metrics are off");
        }
        return history;
    }

    /** The registry; only when on (tests). */
    public PrometheusMeterRegistry registry() {
        if (registry == null) {
            throw new IllegalStateException("metrics are off");
        }
        return registry;
    }

    public Function<OffsetAndEpoch, SnapshotWriter> snapshotWriters(Function<OffsetAndEpoch, SnapshotWriter> writers) {
        return snapshots == null ? writers : snapshots.writers(writers);
    }

    public SnapshotRegistration snapshotRegistration(SnapshotRegistration registration) {
        return snapshots == null ? registration : snapshots.registration(registration);
    }

    /** Raft's state machine, with commits, elections and leader changes counted on the way. */
    public RaftListener raftListener(RaftListener stateMachine) {
        if (registry == null) {
            return stateMachine;
        }
        Timer commitLatency = Timer.builder("metaquorum.raft.commit.latency")
                .description("Time from the leader's append of one of its batches to its commit, on the leader"
                        + " (Kafka raft-metrics commit-latency-avg/max)")
                .serviceLevelObjectives(TIME_BUCKETS).register(registry);
        Counter fetchRecords = Counter.builder("metaquorum.raft.fetch.records")
                .description("Records this replica received from the leader, counted as they commit (Kafka"
                        + " raft-metrics fetch-records-rate)").register(registry);
        Counter elections = Counter.builder("metaquorum.raft.elections")
                .description("Epochs in which this replica learned of an elected leader (no Kafka equivalent;"
                        + " Kafka has election-latency)").register(registry);
        Counter leaderChanges = Counter.builder("metaquorum.raft.leader.changes")
                .description("Times the leader this replica knows became another node, the first after a"
                        + " start included (Kafka NewActiveControllersCount, counted on every node)")
                .register(registry);
        return new MeteredRaftListener(stateMachine, commitLatency, fetchRecords, elections, leaderChanges, history);
    }

    /** The controller's event loop timers and append counter. */
    public ControllerLoopMetrics controllerLoop() {
        if (registry == null) {
            return ControllerLoopMetrics.off();
        }
        Timer queueTime = Timer.builder("metaquorum.controller.event.queue.time")
                .description("Time a controller event (request or raft report) waited in the queue (Kafka"
                        + " EventQueueTimeMs)").serviceLevelObjectives(TIME_BUCKETS).register(registry);
        Timer processingTime = Timer.builder("metaquorum.controller.event.queue.processing.time")
                .description("Time the controller spent running one event (Kafka EventQueueProcessingTimeMs)")
                .serviceLevelObjectives(TIME_BUCKETS).register(registry);
        Counter appended = Counter.builder("metaquorum.raft.append.records")
                .description("Records the active controller handed to raft, one atomic append at a time (Kafka"
                        + " raft-metrics append-records-rate)").register(registry);
        return new ControllerLoopMetrics(queueTime, processingTime, appended);
    }

    /** Raft's status as gauges; {@code raft} may supply null until the node is built. */
    public void bindRaft(Supplier<RaftNode> raft) {
        raftGauge(raft, "metaquorum.raft.current.epoch", "The epoch this replica is in (Kafka current-epoch)",
                RaftStatus::epoch);
        raftGauge(raft, "metaquorum.raft.current.leader", "The leader's node id, -1 when none is known (Kafka"
                + " current-leader)", RaftStatus::leaderId);
        raftGauge(raft, "metaquorum.raft.high.watermark", "The high watermark, -1 while unknown (Kafka"
                + " high-watermark)", RaftStatus::highWatermark);
        raftGauge(raft, "metaquorum.raft.log.end.offset", "The end offset of this replica's log (Kafka"
                + " log-end-offset)", RaftStatus::logEndOffset);
    }

    /**
     * The controller's gauges: whether it is the active one, and the counts and offsets of its
     * committed image (Kafka's kafka.controller:type=KafkaController group).
     */
    public void bindController(MetadataLoader loader, BooleanSupplier active, Supplier<RaftNode> raft) {
        if (registry == null) {
            return;
        }
        gauge("metaquorum.controller.active.controller.count", active,
                a -> a.getAsBoolean() ? 1 : 0, "1 on the active controller, 0 elsewhere (Kafka ActiveControllerCount)");
        ImageCounts.Cache counts = new ImageCounts.Cache();
        imageGauge(loader, counts, "metaquorum.controller.global.topic.count", ImageCounts::topics,
                "Topics in the committed image (Kafka GlobalTopicCount)");
        imageGauge(loader, counts, "metaquorum.controller.global.partition.count", ImageCounts::partitions,
                "Partitions in the committed image (Kafka GlobalPartitionCount)");
        imageGauge(loader, counts, "metaquorum.controller.offline.partitions.count", ImageCounts::offlinePartitions,
                "Partitions without a leader (Kafka OfflinePartitionsCount)");
        imageGauge(loader, counts, "metaquorum.controller.fenced.broker.count", ImageCounts::fencedBrokers,
                "Registered brokers that are fenced (Kafka FencedBrokerCount)");
        imageGauge(loader, counts, "metaquorum.controller.active.broker.count", ImageCounts::activeBrokers,
                "Registered brokers that are not fenced (Kafka ActiveBrokerCount)");
        appliedGauges(loader, "metaquorum.controller", "LastAppliedRecordOffset", "LastAppliedRecordTimestamp",
                "LastAppliedRecordLagMs");
        raftGauge(raft, "metaquorum.controller.last.committed.record.offset", "Offset of the last record raft"
                + " committed (the high watermark - 1), -2 while unknown (Kafka LastCommittedRecordOffset)",
                s -> s.highWatermark() - 1);
    }

    /** The broker's gauges: its metadata replay and its partition directories. */
    public void bindBroker(MetadataLoader loader, LongSupplier directoriesAppliedOffset, IntSupplier offlineLogDirs) {
        if (registry == null) {
            return;
        }
        appliedGauges(loader, "metaquorum.broker.metadata", "broker-metadata-metrics last-applied-record-offset",
                "last-applied-record-timestamp", "last-applied-record-lag-ms");
        gauge("metaquorum.broker.partition.directories.applied.offset", directoriesAppliedOffset,
                LongSupplier::getAsLong, "Offset of the newest image whose partition directories are all in place,"
                        + " -1 before any (no Kafka equivalent)");
        gauge("metaquorum.broker.partition.directories.backlog.offsets", directoriesAppliedOffset,
                applied -> Math.max(0, loader.image().lastCommittedOffset() - applied.getAsLong()),
                "Offsets of committed metadata whose partition directories are not yet in place (no Kafka"
                        + " equivalent)");
        gauge("metaquorum.broker.offline.log.directory.count", offlineLogDirs, IntSupplier::getAsInt,
                "Log dirs a full disk took offline until the broker restarts (Kafka OfflineLogDirectoryCount)");
    }

    /**
     * The offset, append time and lag of the last record in the loader's image, under
     * {@code prefix}; {@code kafka} names Kafka's three metrics, in that order.
     */
    private void appliedGauges(MetadataLoader loader, String prefix, String... kafka) {
        gauge(prefix + ".last.applied.record.offset", loader, l -> l.image().lastCommittedOffset(),
                "Offset of the last record applied to the image, -1 before any (Kafka " + kafka[0] + ")");
        Gauge.builder(prefix + ".last.applied.record.timestamp", loader,
                        l -> appendTimeMs(l) < 0 ? Double.NaN : appendTimeMs(l) / 1000.0)
                .baseUnit("seconds").strongReference(true)
                .description("Append time (Unix) of the last record applied, NaN before any (Kafka " + kafka[1]
                        + ")").register(registry);
        Gauge.builder(prefix + ".last.applied.record.lag", loader,
                        l -> appendTimeMs(l) < 0 ? Double.NaN : (System.currentTimeMillis() - appendTimeMs(l)) / 1000.0)
                .baseUnit("seconds").strongReference(true)
                .description("Now minus the append time of the last record applied, NaN before any (Kafka " + kafka[2]
                        + "); the active controller writes a record every metadata.max.idle.interval.ms, so a healthy"
                        + " lag stays below that plus a commit")
                .register(registry);
    }

    private static long appendTimeMs(MetadataLoader loader) {
        LoaderStatus status = loader.status();
        return status.lastCommittedTimeMs();
    }

    private void imageGauge(MetadataLoader loader, ImageCounts.Cache counts, String name,
                            ToDoubleFunction<ImageCounts> value, String description) {
        gauge(name, loader, l -> value.applyAsDouble(counts.of(l.image())), description);
    }

    private void raftGauge(Supplier<RaftNode> raft, String name, String description,
                           ToDoubleFunction<RaftStatus> value) {
        if (registry == null) {
            return;
        }
        gauge(name, raft, r -> {
            RaftNode node = r.get();
            return node == null ? Double.NaN : value.applyAsDouble(node.status());
        }, description);
    }

    private <T> void gauge(String name, T source, ToDoubleFunction<T> value, String description) {
        Gauge.builder(name, source, value).strongReference(true).description(description).register(registry);
    }
}
