package io.metaquorum.broker.partition.disk;

import static io.metaquorum.broker.partition.TestImages.id;
import static io.metaquorum.broker.partition.TestImages.replicas;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.broker.partition.PartitionReconciler;
import io.metaquorum.broker.partition.PartitionStore;
import io.metaquorum.broker.partition.TestImages;
import io.metaquorum.common.time.SystemTime;
import io.metaquorum.metadata.image.ImageUpdate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LogManager thread on real directories: it follows images, coalesces them, retries disk errors, deletes strays on time. */
class LogManagerTest {
    private static final int BROKER = 4;
    private static final long AWAIT_MS = 20_000;

    @TempDir
    Path root;

    private final List<String> faults = Collections.synchronizedList(new ArrayList<>());
    private final List<LogManager> started = new ArrayList<>();
    private final TestImages images = new TestImages();

    @AfterEach
    void stopAndCheckNoFault() {
        started.forEach(LogManager::close);
        assertEquals(List.of(), faults);
    }

    private LogManager start(List<Path> logDirs, long delayMs) {
        LogManager manager = new LogManager(BROKER, logDirs, delayMs, SystemTime.INSTANCE, "[node 4] ",
                (message, cause) -> faults.add(message));
        return started(manager);
    }

    private LogManager started(LogManager manager) {
        started.add(manager);
        manager.start();
        return manager;
    }

    private Path dir(String name) throws IOException {
        return Files.createDirectories(root.resolve(name));
    }

    /** Polls {@code condition} every few ms until it holds or {@link #AWAIT_MS} pass. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(2);
        }
    }

    private static void awaitApplied(LogManager manager, ImageUpdate update) throws InterruptedException {
        await(() -> manager.appliedOffset() == update.offset(),
                "offset " + update.offset() + " is applied (at " + manager.appliedOffset() + ")");
    }

    private static List<String> names(Path logDir) throws IOException {
        try (Stream<Path> entries = Files.list(logDir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void followsImagesAndReportsTheOffsetWhoseDirectoriesAreInPlace() throws Exception {
        Path a = dir("a");
        Path b = dir("b");
        LogManager manager = start(List.of(a, b), 60_000);
        assertEquals(-1, manager.appliedOffset());
        ImageUpdate created = images.create("t", id(1), replicas(4), replicas(5), replicas(5, 4));
        manager.onImage(created);
        awaitApplied(manager, created);
        // In place and not yet published: the metadata keeps its temporary name for PUBLISH_DELAY_MS.
        assertEquals("version: 0\ntopic_id: " + TestImages.base64(id(1)),
                Files.readString(a.resolve("t-0/partition.metadata.tmp")));
        assertEquals(List.of("partition.metadata.tmp"), names(b.resolve("t-2")));

        ImageUpdate deleted = images.delete("t");
        manager.onImage(deleted);
        awaitApplied(manager, deleted);
        assertEquals(List.of(), names(a));
        assertEquals(List.of(), names(b));
        assertTrue(manager.lastDiskError().isEmpty());
    }

    @Test
    void aBatchIsPublishedThePublishDelayAfterItWasWrittenAndAStartPublishesWhatAStopLeft() throws Exception {
        Path a = dir("a");
        long publishDelayMs = 300;
        NioPartitionStore store = new NioPartitionStore(2);
        LogManager manager = started(new LogManager(new PartitionReconciler(BROKER, List.of(a), 60_000,
                publishDelayMs, store, "[node 4] "), BROKER, SystemTime.INSTANCE, "[node 4] ",
                (message, cause) -> faults.add(message), store));
        long offeredAtMs = System.currentTimeMillis();
        ImageUpdate created = images.create("t", id(1), replicas(4), replicas(4));
        manager.onImage(created);
        awaitApplied(manager, created);
        await(() -> Files.exists(a.resolve("t-1/partition.metadata")), "the batch is published");
        assertTrue(System.currentTimeMillis() >= offeredAtMs + publishDelayMs, "published before its delay");
        assertEquals(List.of("partition.metadata"), names(a.resolve("t-0")));
        assertEquals("version: 0\ntopic_id: " + TestImages.base64(id(1)),
                Files.readString(a.resolve("t-0/partition.metadata")));

        manager.close();

        // On a node's delay (PartitionReconciler.PUBLISH_DELAY_MS), a stop comes before the publish.
        LogManager node = start(List.of(a), 60_000);
        ImageUpdate more = images.create("u", id(2), replicas(4));
        node.onImage(more);
        awaitApplied(node, more);
        node.close();
        assertEquals(List.of("partition.metadata.tmp"), names(a.resolve("u-0")), "stopped before the publish");
        LogManager restarted = start(List.of(a), 60_000);
        restarted.onImage(more);
        awaitApplied(restarted, more);
        assertEquals(List.of("t-0", "t-1", "u-0"), names(a), "no stray: the start took the whole unpublished file");
        assertEquals(List.of("partition.metadata"), names(a.resolve("u-0")), "and published it at once");
    }

    @Test
    void imagesOfferedDuringABusyPassAreCoalescedAndOfferingNeverBlocks() throws Exception {
        Path a = dir("a");
        BlockingStore store = new BlockingStore();
        PartitionReconciler reconciler = new PartitionReconciler(BROKER, List.of(a), 60_000, store, "[node 4] ");
        LogManager manager = started(new LogManager(reconciler, BROKER, SystemTime.INSTANCE, "[node 4] ",
                (message, cause) -> faults.add(message), () -> { }));
        manager.onImage(images.create("first", id(1), replicas(4)));
        assertTrue(store.entered.await(AWAIT_MS, TimeUnit.MILLISECONDS), "the first pass reached the disk");
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int i = 0; i < 100; i++) {
                manager.onImage(images.create("t" + i, id(100 + i), replicas(4)));
            }
        });
        assertEquals(-1, manager.appliedOffset(), "the first pass is still blocked");
        store.release.countDown();
        awaitApplied(manager, images.latest());
        assertEquals(101, names(a).size());
        assertEquals(2, store.syncs.get(), "one pass for the first image, one for the newest of the other 100");
    }

    @Test
    void aVanishedLogDirIsLoggedAndRetriedUntilItIsBack() throws Exception {
        Path a = dir("a");
        LogManager manager = start(List.of(a), 60_000);
        Files.delete(a);
        ImageUpdate image = images.create("t", id(1), replicas(4));
        manager.onImage(image);
        await(() -> manager.lastDiskError().isPresent(), "a disk error is reported");
        assertTrue(manager.lastDiskError().get().contains(a.toString()), manager.lastDiskError().get());
        assertEquals(-1, manager.appliedOffset());
        Files.createDirectory(a);
        awaitApplied(manager, image);
        assertTrue(manager.lastDiskError().isEmpty());
        assertEquals(List.of("t-0"), names(a));
    }

    @Test
    void aReadOnlyLogDirIsLoggedAndRetriedUntilItIsWritable() throws Exception {
        Path a = dir("a");
        ReadOnlyDir readOnly = ReadOnlyDir.make(a);
        try {
            LogManager manager = start(List.of(a), 60_000);
            ImageUpdate image = images.create("t", id(1), replicas(4));
            manager.onImage(image);
            await(() -> manager.lastDiskError().isPresent(), "a disk error is reported");
            assertTrue(manager.lastDiskError().get().contains(a.resolve("t-0").toString()),
                    manager.lastDiskError().get());
            assertEquals(-1, manager.appliedOffset());
            readOnly.undo();
            awaitApplied(manager, image);
            assertTrue(manager.lastDiskError().isEmpty());
            assertEquals(List.of("t-0"), names(a));
        } finally {
            readOnly.undo();
        }
    }

    @Test
    void aStrayIsRenamedAsideAndDeletedOnlyAfterTheDelayAlsoAcrossARestart() throws Exception {
        long delayMs = 4_000;
        Path a = dir("a");
        LogManager first = start(List.of(a), delayMs);
        ImageUpdate original = images.create("t", id(1), replicas(4));
        first.onImage(original);
        awaitApplied(first, original);
        first.close();

        images.delete("t");
        ImageUpdate recreated = images.create("t", id(2), replicas(4));
        LogManager second = start(List.of(a), delayMs);
        second.onImage(recreated);
        awaitApplied(second, recreated);
        second.close();
        List<String> entries = names(a);
        assertEquals(2, entries.size(), entries.toString());
        String stray = entries.get(1);
        assertTrue(stray.startsWith("t-0.") && stray.endsWith("-stray"), stray);
        long deadlineMs = Long.parseLong(stray.substring("t-0.".length(), stray.length() - "-stray".length()))
                + delayMs;
        assertEquals("version: 0\ntopic_id: " + TestImages.base64(id(2)),
                Files.readString(a.resolve("t-0/partition.metadata.tmp")));

        long stagedAtMs = deadlineMs - delayMs;
        await(() -> System.currentTimeMillis() >= stagedAtMs + delayMs / 2, "half the delay passed");
        long restartedAtMs = System.currentTimeMillis();
        LogManager third = start(List.of(a), delayMs);
        third.onImage(recreated);
        boolean seenBeforeDeadline = false;
        while (true) {
            boolean exists = Files.exists(a.resolve(stray));
            long nowMs = System.currentTimeMillis();
            if (!exists) {
                assertTrue(nowMs >= deadlineMs, "the stray went " + (deadlineMs - nowMs) + " ms early");
                break;
            }
            seenBeforeDeadline |= nowMs < deadlineMs;
            assertTrue(nowMs < deadlineMs + AWAIT_MS, "the stray outlived its delay by " + AWAIT_MS + " ms");
            Thread.sleep(2);
        }
        assertTrue(seenBeforeDeadline);
        assertTrue(System.currentTimeMillis() < restartedAtMs + delayMs,
                "deleted at the deadline in its name, not a full delay after the restart");
        assertEquals(List.of("t-0"), names(a));
        assertFalse(Files.exists(a.resolve(stray)));
    }

    /** The NIO store, with the partition creations held until the test releases them. */
    private static final class BlockingStore implements PartitionStore {
        private final NioPartitionStore disk = new NioPartitionStore(1);
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger syncs = new AtomicInteger();

        @Override
        public List<Entry> list(Path logDir) throws IOException {
            return disk.list(logDir);
        }

        @Override
        public byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) throws IOException {
            return disk.readPartitionMetadata(logDir, dir, maxBytes);
        }

        @Override
        public byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) throws IOException {
            return disk.readUnpublishedMetadata(logDir, dir, maxBytes);
        }

        @Override
        public void writePartition(Path logDir, NewPartition partition) throws IOException {
            entered.countDown();
            try {
                if (!release.await(AWAIT_MS, TimeUnit.MILLISECONDS)) {
                    throw new IOException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            disk.writePartition(logDir, partition);
        }

        @Override
        public void syncPartitionFiles(Path logDir, List<NewPartition> partitions) throws IOException {
            disk.syncPartitionFiles(logDir, partitions);
        }

        @Override
        public void publishPartition(Path logDir, String dir) throws IOException {
            disk.publishPartition(logDir, dir);
        }

        @Override
        public void rename(Path logDir, String from, String to) throws IOException {
            disk.rename(logDir, from, to);
        }

        @Override
        public void deleteRecursively(Path logDir, String dir) throws IOException {
            disk.deleteRecursively(logDir, dir);
        }

        @Override
        public void sync(Path logDir) throws IOException {
            syncs.incrementAndGet();
            disk.sync(logDir);
        }
    }
}
