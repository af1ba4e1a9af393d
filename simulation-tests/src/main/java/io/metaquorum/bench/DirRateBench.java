package io.metaquorum.bench;

import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.ScheduledReconciler;
import io.metaquorum.broker.partition.disk.NioPartitionStore;
import io.metaquorum.common.io.Directories;
import io.metaquorum.metadata.image.ImageUpdate;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.protocol.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mq-bench dir-rate --data-dir DIR --partitions N}: the disk's own rate for the work of
 * creating N partition directories, and the broker's rate for the same work on the same disk in
 * the same run. Three ways, each into a fresh directory under {@code --data-dir}, deleted after:
 * <ul>
 *   <li>{@code disk}: plain java.nio, no metaquorum code, in the broker's order for a batch of
 *       1,024: every directory and its {@code partition.metadata.tmp}, the files' fsyncs on
 *       {@code --threads} threads, the renames, one fsync of the parent;</li>
 *   <li>{@code broker}: the broker's own {@link PartitionReconciler} over a
 *       {@link NioPartitionStore}, driven pass after pass as the LogManager's thread drives it,
 *       from an image of N partitions (topics of 10, all on this broker) replayed into a
 *       {@link MetadataLoader} beforehand;</li>
 *   <li>{@code naive}: plain java.nio as the broker did before batches: per directory the
 *       file's fsync, the rename and the directory's own fsync, {@code --threads} directories at
 *       a time, one fsync of the parent at the end.</li>
 * </ul>
 * {@code disk} and {@code broker} alternate over {@code --rounds} (the first round disk first,
 * the next broker first); the figures are medians (the upper of two), the ratio the median of
 * each round's broker rate over its disk rate.
 */
@Command(name = "dir-rate", mixinStandardHelpOptions = true,
        description = "Partition directories per second: the disk's own rate and the broker's, same work, same run.")
final class DirRateBench implements Callable<Integer> {
    private static final int BATCH_MAX = PartitionReconciler.CREATES_PER_PASS_MAX;
    private static final int PARTITIONS_PER_TOPIC = 10;
    private static final String FILE = "partition.metadata";
    private static final String TEMP = FILE + ".tmp";
    private static final long NOW_MS = 1_700_000_000_000L;

    @Option(names = "--data-dir", required = true, description = "a directory on the disk to measure")
    Path dataDir;

    @Option(names = "--partitions", description = "directories per run, a multiple of 10 (default 20000)")
    int partitions = 20_000;

    @Option(names = "--rounds", description = "runs of disk and broker each; medians are printed (default 1)")
    int rounds = 1;

    @Option(names = "--threads", description = "threads whose fsyncs overlap, as the broker's 16 (default 16)")
    int threads = 16;

    @Option(names = "--no-naive", description = "leave out the naive way")
    boolean noNaive;

    @Override
    public Integer call() throws Exception {
        if (partitions <= 0 || partitions % PARTITIONS_PER_TOPIC != 0 || rounds < 1 || threads < 1) {
            throw new IllegalArgumentException("--partitions must be a positive multiple of 10, --rounds and "
                    + "--threads >= 1");
        }
        Files.createDirectories(dataDir);
        MetadataLoader loader = loadImage();
        List<Double> disk = new ArrayList<>();
        List<Double> broker = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                boolean diskFirst = round % 2 == 0;
                for (int i = 0; i < 2; i++) {
                    if (diskFirst == (i == 0)) {
                        disk.add(timed("disk", round, dir -> batched(dir, pool)));
                    } else {
                        broker.add(timed("broker", round, dir -> broker(dir, loader.lastUpdate())));
                    }
                }
            }
            Double naiveRate = noNaive ? null : timed("naive", 0, dir -> naive(dir, pool));
            List<Double> ratios = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                ratios.add(broker.get(round) / disk.get(round));
            }
            System.out.println(AdminFigures.rate("dir_rate_disk_per_s", AdminFigures.median(disk), "directories/s"));
            System.out.println(AdminFigures.rate("dir_rate_broker_per_s", AdminFigures.median(broker),
                    "directories/s"));
            System.out.printf(Locale.ROOT, "dir_rate_broker_to_disk %.2f ratio%n", AdminFigures.median(ratios));
            if (naiveRate != null) {
                System.out.println(AdminFigures.rate("dir_rate_naive_per_s", naiveRate, "directories/s"));
            }
        } finally {
            pool.shutdown();
        }
        return 0;
    }

    /** One way of creating the directories, into an empty directory. */
    @FunctionalInterface
    private interface Way {
        void create(Path dir) throws Exception;
    }

    /** Runs {@code way} into a fresh directory, checks it made every directory, prints a note; directories/s. */
    private double timed(String name, int round, Way way) throws Exception {
        Path dir = dataDir.resolve("dir-rate-" + name + "-" + ProcessHandle.current().pid());
        Files.createDirectory(dir);
        try {
            long start = System.nanoTime();
            way.create(dir);
            long nanos = System.nanoTime() - start;
            long made;
            try (Stream<Path> entries = Files.list(dir)) {
                made = entries.filter(entry -> Files.isRegularFile(entry.resolve(FILE))).count();
            }
            if (made != partitions) {
                throw new IllegalStateException(name + " made " + made + " directories, expected " + partitions);
            }
            double rate = AdminFigures.perSecond(partitions, nanos);
            System.out.printf(Locale.ROOT, "# %s round %d: %,d directories in %,d ms, %,.0f/s%n", name, round,
                    partitions, nanos / 1_000_000, rate);
            return rate;
        } finally {
            Directories.deleteRecursively(dir);
        }
    }

    /** The broker's order, in plain java.nio: per batch, all writes, the files' fsyncs, the renames, one parent fsync. */
    private void batched(Path dir, ExecutorService pool) throws Exception {
        for (int from = 0; from < partitions; from += BATCH_MAX) {
            List<Path> batch = new ArrayList<>();
            for (int p = from; p < Math.min(partitions, from + BATCH_MAX); p++) {
                Path partition = dir.resolve(name(p));
                Files.createDirectory(partition);
                write(partition.resolve(TEMP), p);
                batch.add(partition);
            }
            List<Future<?>> syncs = new ArrayList<>();
            for (Path partition : batch) {
                syncs.add(pool.submit(() -> {
                    force(partition.resolve(TEMP), StandardOpenOption.WRITE);
                    return null;
                }));
            }
            for (Future<?> sync : syncs) {
                sync.get();
            }
            for (Path partition : batch) {
                Files.move(partition.resolve(TEMP), partition.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
            }
            force(dir, StandardOpenOption.READ);
        }
    }

    /** Two fsyncs per directory (its file, itself), {@code threads} directories at a time, then the parent's. */
    private void naive(Path dir, ExecutorService pool) throws Exception {
        List<Future<?>> creations = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            int index = p;
            creations.add(pool.submit(() -> {
                Path partition = dir.resolve(name(index));
                Files.createDirectory(partition);
                write(partition.resolve(TEMP), index);
                force(partition.resolve(TEMP), StandardOpenOption.WRITE);
                Files.move(partition.resolve(TEMP), partition.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
                force(partition, StandardOpenOption.READ);
                return null;
            }));
        }
        for (Future<?> creation : creations) {
            creation.get();
        }
        force(dir, StandardOpenOption.READ);
    }

    /** The broker's reconciler over the NIO store, one pass after another until the image is in place. */
    private void broker(Path dir, ImageUpdate update) throws IOException {
        try (NioPartitionStore store = new NioPartitionStore(threads)) {
            ScheduledReconciler directories = new ScheduledReconciler(new PartitionReconciler(0, List.of(dir),
                    4 * 3_600_000L, store, ""), "", ScheduledReconciler.PassListener.NONE);
            directories.onImage(update);
            long nextMs = directories.drive(NOW_MS);
            while (nextMs == Long.MIN_VALUE) {
                nextMs = directories.drive(NOW_MS);
            }
            if (directories.reconciledImage().isEmpty()) {
                throw new IllegalStateException("the broker's passes did not complete (a disk error?)");
            }
        }
    }

    /** An image of {@code partitions} partitions in topics of 10, RF 3 over brokers 0-2: every one on broker 0. */
    private MetadataLoader loadImage() {
        int topics = partitions / PARTITIONS_PER_TOPIC;
        ImageScaleRecords log = new ImageScaleRecords(3, topics, PARTITIONS_PER_TOPIC, 1_000);
        MetadataLoader loader = new MetadataLoader("", Long.MAX_VALUE, task -> false);
        long left = log.recordCount(topics);
        while (left > 0) {
            RecordBatch batch = log.nextBatch((int) Math.min(1_000, left));
            left -= batch.getRecordCount();
            loader.handleCommit(List.of(batch));
        }
        return loader;
    }

    private static String name(int p) {
        return String.format(Locale.ROOT, "topic-%07d-%d", p / PARTITIONS_PER_TOPIC, p % PARTITIONS_PER_TOPIC);
    }

    /** What a partition.metadata holds: two lines, a made-up 22-character id. */
    private static void write(Path file, int p) throws IOException {
        byte[] content = String.format(Locale.ROOT, "version: 0\ntopic_id: %022d", p / PARTITIONS_PER_TOPIC)
                .getBytes(StandardCharsets.US_ASCII);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }

    private static void force(Path path, StandardOpenOption mode) throws IOException {
        try (FileChannel channel = FileChannel.open(path, mode)) {
            channel.force(true);
        }
    }
}
