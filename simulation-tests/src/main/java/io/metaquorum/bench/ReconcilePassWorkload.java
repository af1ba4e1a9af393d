package io.metaquorum.bench;

import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ReconcileResult;
import io.metaquorum.broker.partition.ScheduledReconciler;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.image.TopicImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.RecordBatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code mq-bench reconcile-pass --partitions 10000,100000,1000000}: what one commit costs a
 * broker's partition directories as the image grows. For each size, the log of an image of
 * that many partitions ({@link ImageScaleRecords}: topics of P partitions, RF 3) is replayed
 * into a production {@link MetadataLoader}; a production {@link ScheduledReconciler} (the
 * reconcile schedule and {@link PartitionReconciler}, as the LogManager's thread runs them) over
 * log dirs kept on the heap ({@link HeapPartitionStore}) creates broker 0's directories; then,
 * pass after pass, one new topic is committed and the time from handing the loader's new image
 * to the reconciler until its pass returns is measured. Each added topic is removed again by a
 * commit and a pass that are not measured, so the image keeps its size. No disk: the figure is
 * the reconciler's CPU. The pass looks only at what the loader's update lists as changed, so the
 * figure should not grow with the image (it did when each pass walked every topic).
 *
 * <p>Prints {@code reconcile_pass_mean_us_N}, {@code reconcile_pass_p50_us_N} and
 * {@code reconcile_pass_p99_us_N} per size N; notes start with {@code #}. Exits 1 if a pass
 * was incomplete or the directories differ from what the image assigns.
 */
public final class ReconcilePassWorkload {
    private static final int BROKER = 0;
    private static final Path LOG_DIR = Path.of("/bench/log-dir");
    /** Records per batch, and batches per commit, while the image is built (about one driver poll). */
    private static final int BATCH_RECORDS = 1_000;
    private static final int BATCHES_PER_COMMIT = 100;
    /** The reconciler's wall clock, fixed: no stray is ever staged, so no deadline falls due. */
    private static final long NOW_MS = 1_700_000_000_000L;
    private static final long STRAY_DELAY_MS = 4 * 3_600_000L;

    private ReconcilePassWorkload() {
    }

    public static void main(String[] args) {
        ReconcilePassOptions options;
        try {
            options = ReconcilePassOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("mq-bench reconcile-pass: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(ReconcilePassOptions.USAGE);
            return;
        }
        try {
            System.out.printf("# max heap %,d MiB%n", Runtime.getRuntime().maxMemory() >> 20);
            for (long partitions : options.partitions()) {
                measure(partitions, options);
            }
        } catch (RuntimeException e) {
            System.err.println("mq-bench reconcile-pass: " + e.getMessage());
            if (options.verbose()) {
                e.printStackTrace();
            }
            System.exit(1);
        }
    }

    /** The workload at one image size; prints its figures. */
    private static void measure(long partitions, ReconcilePassOptions options) {
        int perTopic = options.partitionsPerTopic();
        int topics = (int) (partitions / perTopic);
        int rounds = options.warmupPasses() + options.passes();
        ImageScaleRecords log = new ImageScaleRecords(options.brokers(), topics + rounds, perTopic, BATCH_RECORDS);
        MetadataLoader loader = new MetadataLoader("", Long.MAX_VALUE, task -> false);
        long start = System.nanoTime();
        replay(loader, log, log.recordCount(topics));
        long replayMs = (System.nanoTime() - start) / 1_000_000;

        HeapPartitionStore store = new HeapPartitionStore(List.of(LOG_DIR));
        ResultCheck check = new ResultCheck();
        ScheduledReconciler directories = new ScheduledReconciler(new PartitionReconciler(BROKER, List.of(LOG_DIR),
                STRAY_DELAY_MS, store, ""), "", (image, result, nowMs) -> check.onPass(result));
        start = System.nanoTime();
        pass(directories, loader);
        long firstPassMs = (System.nanoTime() - start) / 1_000_000;
        long baseDirs = store.entryCount();
        check.expect(loader.image(), baseDirs, store);
        System.out.printf("# %,d partitions: %,d topics x %d, RF 3 over %d brokers; broker %d holds %,d directories; "
                        + "log replayed in %,d ms, first pass (scan and create) %,d ms; heap in use %,d MiB%n",
                partitions, topics, perTopic, options.brokers(), BROKER, baseDirs, replayMs, firstPassMs,
                PersistentMapBench.usedHeapAfterGc() >> 20);

        long[] createNanos = new long[options.passes()];
        long removeNanos = 0;
        for (int round = 0; round < rounds; round++) {
            int topic = topics + round;
            loader.handleCommit(List.of(log.nextBatch(1 + perTopic)));
            long created = pass(directories, loader);
            check.expect(loader.image(), baseDirs + localPartitions(loader.image(), topic), store);
            loader.handleCommit(List.of(log.removeTopic(topic)));
            long removed = pass(directories, loader);
            check.expect(loader.image(), baseDirs, store);
            if (round >= options.warmupPasses()) {
                createNanos[round - options.warmupPasses()] = created;
                removeNanos += removed;
            }
        }
        Arrays.sort(createNanos);
        System.out.printf("# %,d warm-up passes, then %,d measured, each applying one new topic of %d partitions; "
                        + "the unmeasured pass that removes it again: mean %.1f us%n", options.warmupPasses(),
                options.passes(), perTopic, removeNanos / 1e3 / options.passes());
        System.out.printf("reconcile_pass_mean_us_%d %.1f us%n", partitions, mean(createNanos) / 1e3);
        System.out.printf("reconcile_pass_p50_us_%d %.1f us%n", partitions, percentile(createNanos, 0.50) / 1e3);
        System.out.printf("reconcile_pass_p99_us_%d %.1f us%n", partitions, percentile(createNanos, 0.99) / 1e3);
    }

    /**
     * Hands the loader's newest image to the directories and runs its passes (more than one when
     * a pass stops at the creation bound, as the first does); returns the nanoseconds they took.
     */
    private static long pass(ScheduledReconciler directories, MetadataLoader loader) {
        long start = System.nanoTime();
        directories.onImage(loader.lastUpdate());
        long nextMs = directories.drive(NOW_MS);
        while (nextMs == Long.MIN_VALUE) {
            nextMs = directories.drive(NOW_MS);
        }
        return System.nanoTime() - start;
    }

    /** Feeds the first {@code records} records of {@code log} to {@code loader} as the driver would. */
    private static void replay(MetadataLoader loader, ImageScaleRecords log, long records) {
        long left = records;
        while (left > 0) {
            List<RecordBatch> batches = new ArrayList<>(BATCHES_PER_COMMIT);
            while (left > 0 && batches.size() < BATCHES_PER_COMMIT) {
                RecordBatch batch = log.nextBatch((int) Math.min(BATCH_RECORDS, left));
                left -= batch.getRecordCount();
                batches.add(batch);
            }
            loader.handleCommit(batches);
        }
    }

    /** The partitions of topic {@code index} ({@code topic-%07d}) that list broker 0. */
    private static int localPartitions(MetadataImage image, int index) {
        TopicImage topic = image.topics().topic(String.format("topic-%07d", index));
        int count = 0;
        for (int p = 0; p < topic.partitionCount(); p++) {
            count += topic.partition(p).hasReplica(BROKER) ? 1 : 0;
        }
        return count;
    }

    private static double mean(long[] values) {
        double sum = 0;
        for (long value : values) {
            sum += value;
        }
        return sum / values.length;
    }

    private static long percentile(long[] sorted, double fraction) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
    }

    /** Fails the run when a pass was incomplete, or left the directories off what the image assigns. */
    private static final class ResultCheck {
        private ReconcileResult last;

        void onPass(ReconcileResult result) {
            last = result;
        }

        void expect(MetadataImage image, long directories, HeapPartitionStore store) {
            if (last == null || !last.complete()) {
                throw new IllegalStateException("the pass at offset " + image.lastCommittedOffset()
                        + " was not complete: " + last);
            }
            if (store.entryCount() != directories) {
                throw new IllegalStateException("at offset " + image.lastCommittedOffset() + " broker " + BROKER
                        + " has " + store.entryCount() + " directories, expected " + directories);
            }
        }
    }
}
