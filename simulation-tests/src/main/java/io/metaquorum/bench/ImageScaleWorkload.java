package io.metaquorum.bench;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.loader.MetadataLoader;
import io.metaquorum.metadata.log.rocksdb.MetadataLogStore;
import io.metaquorum.metadata.snapshot.SnapshotLimits;
import io.metaquorum.metadata.snapshot.SnapshotTask;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RaftLog;
import io.metaquorum.raft.storage.SnapshotReader;
import io.metaquorum.raft.storage.SnapshotWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code mq-bench image-scale --partitions N}: the metadata image at scale, through the
 * production classes. Replays the log of {@link ImageScaleRecords} (topics of 50
 * partitions, RF 3, 6 brokers) into a {@link MetadataLoader} through {@code MetadataDelta},
 * measures the heap the image retains after a full GC, writes it as a snapshot file with the
 * streaming writer ({@link SnapshotTask#writeTo} into the RocksDB log's
 * {@code SnapshotFileWriter}, then installed), loads the file back with the loader
 * ({@code handleLoadSnapshot}, streamed), and checks that the loaded image {@code equals}
 * the replayed one (exit 1 if not).
 *
 * <p>Prints {@code image_heap_bytes}, {@code snapshot_write_s}, {@code snapshot_load_s},
 * {@code replay_records_per_s}; notes start with {@code #}.
 */
public final class ImageScaleWorkload {
    private static final int BROKERS = 6;
    /** Records per committed batch, and batches per handleCommit call (about what one driver poll applies). */
    private static final int BATCH_RECORDS = 1_000;
    private static final int BATCHES_PER_COMMIT = 100;

    private ImageScaleWorkload() {
    }

    public static void main(String[] args) {
        ImageScaleOptions options;
        try {
            options = ImageScaleOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("mq-bench image-scale: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(ImageScaleOptions.USAGE);
            return;
        }
        try {
            System.exit(run(options) ? 0 : 1);
        } catch (RuntimeException e) {
            System.err.println("mq-bench image-scale: " + e.getMessage());
            if (options.verbose()) {
                e.printStackTrace();
            }
            System.exit(1);
        }
    }

    /** Runs the workload and prints its figures; false if the loaded image differs. */
    static boolean run(ImageScaleOptions options) {
        int topics = (int) (options.partitions() / options.partitionsPerTopic());
        ImageScaleRecords log = new ImageScaleRecords(BROKERS, topics, options.partitionsPerTopic(), BATCH_RECORDS);
        System.out.printf("# %,d partitions: %,d topics x %d, RF 3, %d brokers; %,d records; max heap %,d MiB%n",
                (long) topics * options.partitionsPerTopic(), topics, options.partitionsPerTopic(), BROKERS,
                log.recordCount(), Runtime.getRuntime().maxMemory() >> 20);
        long heapBefore = PersistentMapBench.usedHeapAfterGc();
        MetadataLoader replayer = new MetadataLoader("", Long.MAX_VALUE, task -> false);
        long replayNanos = replay(replayer, log);
        MetadataImage image = replayer.image();
        long heapBytes = PersistentMapBench.usedHeapAfterGc() - heapBefore;
        System.out.printf("image_heap_bytes %d bytes%n", heapBytes);
        System.out.printf("replay_records_per_s %.0f records/s%n", log.recordCount() / (replayNanos / 1e9));
        Path directory = options.dataDir() != null ? options.dataDir() : temporaryDirectory();
        try (MetadataLogStore store = MetadataLogStore.open(directory.resolve("metadata"), 0)) {
            RaftLog raftLog = store.raftLog();
            SnapshotTask task = SnapshotTask.of(image, replayer.status().lastCommittedTimeMs());
            long start = System.nanoTime();
            SnapshotWriter writer = raftLog.createSnapshot(task.id());
            long records = task.writeTo(writer, SnapshotLimits.DEFAULTS);
            raftLog.installSnapshot(writer);
            writer.close();
            System.out.printf("snapshot_write_s %.3f s%n", (System.nanoTime() - start) / 1e9);
            OffsetAndEpoch id = task.id();
            System.out.printf("# snapshot %s: %,d records, %,d bytes in %s%n", id, records, raftLog.snapshotSize(id),
                    directory.resolve("metadata"));
            MetadataLoader loader = new MetadataLoader("", Long.MAX_VALUE, t -> false);
            start = System.nanoTime();
            loader.handleLoadSnapshot(id, SnapshotReader.of(raftLog, id));
            System.out.printf("snapshot_load_s %.3f s%n", (System.nanoTime() - start) / 1e9);
            boolean equal = loader.image().equals(image);
            System.out.println("# loaded image equals the replayed one: " + equal);
            return equal;
        } finally {
            if (options.dataDir() == null) {
                deleteRecursively(directory);
            }
        }
    }

    /** Feeds the whole log to {@code loader} as the driver would; returns the nanoseconds spent in it. */
    static long replay(MetadataLoader loader, ImageScaleRecords log) {
        long nanos = 0;
        while (true) {
            List<RecordBatch> batches = new ArrayList<>(BATCHES_PER_COMMIT);
            for (RecordBatch batch = log.nextBatch(); batch != null; batch = log.nextBatch()) {
                batches.add(batch);
                if (batches.size() == BATCHES_PER_COMMIT) {
                    break;
                }
            }
            if (batches.isEmpty()) {
                return nanos;
            }
            long start = System.nanoTime();
            loader.handleCommit(batches);
            nanos += System.nanoTime() - start;
        }
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("mq-image-scale-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory", e);
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            System.err.println("# could not delete " + directory + ": " + e.getMessage());
        }
    }
}
