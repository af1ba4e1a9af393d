package io.metaquorum.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench propagation}: {@code --count} sequential CreateTopics of one topic (1
 * partition, replicated to every broker of the cluster), each answered once committed; for
 * each, the time from the answer until every broker has the partition's directory with its
 * metadata written ({@code partition.metadata}, or the {@code partition.metadata.tmp} a broker
 * publishes under that name 35 s later), watched in the brokers' {@code log.dirs} under
 * {@code --data-dir} every 100 µs. Prints p50, p99 and max.
 */
@Command(name = "propagation", mixinStandardHelpOptions = true,
        description = "CreateTopics acknowledged -> partition directories on every replica broker.")
final class PropagationBench implements Callable<Integer> {
    private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    @Mixin
    AdminBenchOptions options = new AdminBenchOptions();

    @Option(names = "--count", description = "measured creates (default 200)")
    int count = 200;

    @Option(names = "--warmup", description = "creates before measuring, not counted (default 10)")
    int warmup = 10;

    @Option(names = "--data-dir", description = "the cluster's data directory (default ./quickstart-data)")
    Path dataDir = Path.of("quickstart-data");

    @Override
    public Integer call() throws Exception {
        AdminBenchOptions.requirePositive("--count", count);
        BrokerLogDirs dirs = BrokerLogDirs.under(dataDir);
        List<Integer> brokers = dirs.brokerIds();
        try (AdminBenchSession session = AdminBenchSession.open(options)) {
            System.out.printf("# propagation: %d creates of 1 partition with RF %d (brokers %s) after %d unmeasured"
                    + " ones; from the answer to the directory on every broker%n", count, brokers.size(), brokers,
                    warmup);
            for (int i = 0; i < warmup; i++) {
                createAndAwait(session, dirs, session.topicName("pw", i), null);
            }
            Histogram micros = AdminFigures.latencyMicros();
            for (int i = 0; i < count; i++) {
                createAndAwait(session, dirs, session.topicName("p", i), micros);
            }
            System.out.println(AdminFigures.ms("propagation_p50_ms", AdminFigures.percentileMs(micros, 50)));
            System.out.println(AdminFigures.ms("propagation_p99_ms", AdminFigures.percentileMs(micros, 99)));
            System.out.println(AdminFigures.ms("propagation_max_ms", AdminFigures.maxMs(micros)));
        }
        return 0;
    }

    private void createAndAwait(AdminBenchSession session, BrokerLogDirs dirs, String topic, Histogram micros) {
        List<Integer> brokers = dirs.brokerIds();
        session.create(List.of(AdminBenchSession.topic(topic, 1, brokers.size())));
        long acknowledged = System.nanoTime();
        long deadline = acknowledged + TimeUnit.MILLISECONDS.toNanos(options.timeoutMs);
        for (int broker : brokers) {
            while (!dirs.has(broker, topic, 0)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker " + broker + " has no directory for " + topic + "-0 "
                            + options.timeoutMs + " ms after the create was acknowledged");
                }
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
        if (micros != null) {
            AdminFigures.recordSince(micros, acknowledged);
        }
    }
}
