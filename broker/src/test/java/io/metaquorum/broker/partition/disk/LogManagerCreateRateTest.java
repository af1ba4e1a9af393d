package io.metaquorum.broker.partition.disk;

import static io.metaquorum.broker.partition.TestImages.id;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.metaquorum.broker.partition.TestImages;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.image.ImageUpdate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How fast the LogManager puts directories on this disk: one image assigning
 * {@code -Dlogmanager.bench.partitions} partitions (topics of 10 partitions, every one on this
 * broker) over {@code -Dlogmanager.bench.dirs} log dirs, timed from {@code onImage} to
 * {@code appliedOffset}; then one more topic not on this broker and the image reloaded as from a
 * snapshot (no object shared, its changes unknown, so the pass walks all of it), which must
 * change nothing. Skipped unless the partition count is given.
 */
class LogManagerCreateRateTest {
    @TempDir
    Path root;

    @Test
    void createRate() throws IOException, InterruptedException {
        int partitions = Integer.getInteger("logmanager.bench.partitions", 0);
        Assumptions.assumeTrue(partitions > 0, "set -Dlogmanager.bench.partitions=N to measure");
        int dirCount = Integer.getInteger("logmanager.bench.dirs", 1);
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < dirCount; i++) {
            dirs.add(Files.createDirectories(root.resolve("logs-" + i)));
        }
        TestImages images = new TestImages();
        int[][] tenOnBroker4 = new int[10][];
        for (int p = 0; p < 10; p++) {
            tenOnBroker4[p] = new int[] {4, 5, 6};
        }
        for (int t = 0; t < partitions / 10; t++) {
            images.create("bench-" + t, id(t + 1), tenOnBroker4);
        }
        try (LogManager manager = new LogManager(4, dirs, 60_000, SystemTime.INSTANCE, "[node 4] ",
                (message, cause) -> { })) {
            manager.start();
            long startNs = System.nanoTime();
            manager.onImage(images.take());
            awaitApplied(manager, images.image().lastCommittedOffset());
            long createMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

            long reloadStartNs = System.nanoTime();
            images.create("last", id(1_000_000_000), new int[] {5});
            ImageUpdate reloaded = images.reloaded();
            manager.onImage(reloaded);
            awaitApplied(manager, reloaded.offset());
            long noopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - reloadStartNs);
            assertEquals(partitions / 10 * 10, count(dirs), "reloaded at " + reloaded.offset());
            System.out.printf("logmanager-create partitions %d dirs %d: %d ms, %d dirs/s; full pass over an "
                    + "unchanged reloaded image %d ms%n", partitions, dirCount, createMs,
                    partitions * 1000L / Math.max(1, createMs), noopMs);
        }
    }

    private static void awaitApplied(LogManager manager, long offset) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (manager.appliedOffset() != offset) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not applied in 10 minutes");
            }
            Thread.sleep(1);
        }
    }

    private static long count(List<Path> dirs) throws IOException {
        long total = 0;
        for (Path dir : dirs) {
            try (Stream<Path> entries = Files.list(dir)) {
                total += entries.count();
            }
        }
        return total;
    }
}
