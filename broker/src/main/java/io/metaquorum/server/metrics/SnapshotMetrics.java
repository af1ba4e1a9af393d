package io.metaquorum.server.metrics;

import io.metaquorum.metadata.snapshot.thread.SnapshotWriterThread.SnapshotRegistration;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Snapshots this node wrote (docs/metrics.md): how long each took from its first chunk to its
 * hand-over to raft, the size of the latest and its age (Kafka's
 * latest-snapshot-generated-bytes and -age-ms). Measured around the snapshot writer thread's
 * two ports, one snapshot at a time (the thread writes one at a time).
 */
final class SnapshotMetrics {
    private final Timer writeTime;
    /** When the snapshot being written was opened (System.nanoTime), on the snapshot thread. */
    private volatile long startNanos;
    private volatile long latestSizeBytes;
    /** When the latest was handed over (System.currentTimeMillis), -1 before any. */
    private volatile long latestAtMs = -1;

    SnapshotMetrics(MeterRegistry registry) {
        this.writeTime = Timer.builder("metaquorum.snapshot.write.time")
                .description("Time to write one snapshot of the image, first chunk to hand-over to raft (no Kafka"
                        + " equivalent); the count is the snapshots written")
                .serviceLevelObjectives(NodeMetrics.TIME_BUCKETS).register(registry);
        Gauge.builder("metaquorum.snapshot.latest.size", this, s -> s.latestSizeBytes).baseUnit("bytes")
                .description("Size of the latest snapshot this node wrote, 0 before any (Kafka"
                        + " latest-snapshot-generated-bytes)").register(registry);
        Gauge.builder("metaquorum.snapshot.latest.age", this, SnapshotMetrics::latestAgeSeconds).baseUnit("seconds")
                .description("Time since the latest snapshot this node wrote, -1 before any (Kafka"
                        + " latest-snapshot-generated-age-ms)").register(registry);
    }

    Function<OffsetAndEpoch, SnapshotWriter> writers(Function<OffsetAndEpoch, SnapshotWriter> writers) {
        return id -> {
            startNanos = System.nanoTime();
            return writers.apply(id);
        };
    }

    SnapshotRegistration registration(SnapshotRegistration registration) {
        return (writer, registered) -> {
            writeTime.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            latestSizeBytes = writer.sizeBytes();
            latestAtMs = System.currentTimeMillis();
            registration.register(writer, registered);
        };
    }

    private double latestAgeSeconds() {
        long atMs = latestAtMs;
        return atMs < 0 ? -1 : (System.currentTimeMillis() - atMs) / 1000.0;
    }
}
