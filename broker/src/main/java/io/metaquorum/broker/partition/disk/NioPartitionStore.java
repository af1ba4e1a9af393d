package io.metaquorum.broker.partition.disk;

import io.metaquorum.broker.partition.PartitionMetadataFile;
import io.metaquorum.broker.partition.PartitionStore;
import io.metaquorum.common.invariant.Invariants;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link PartitionStore} on the real file system (java.nio). {@code partition.metadata} is
 * written as Kafka writes it, to {@code partition.metadata.tmp}, fsync, atomic rename, in the
 * steps and the order {@code DirectoryBatch} gives a whole batch: the directories and temporary
 * files one after another; later the temporary files' fsyncs on a small pool of threads so that
 * they overlap (the file system commits them together instead of one journal commit per
 * fsync), the renames, and the log dir's fsync ({@link #sync}) once. There is no fsync of each partition
 * directory (see {@code DirectoryBatch} for why none is needed). Symbolic links are never
 * followed: a link under a log dir is an entry that is not a directory, and deleting a tree
 * removes links, not what they point to.
 *
 * <p>Every path is {@code logDir.resolve(name)} with {@code name} checked to be one plain path
 * segment, so nothing outside the log dirs can be named.
 */
public final class NioPartitionStore implements PartitionStore, AutoCloseable {
    /** The suffix of the temporary file {@code partition.metadata} is written to before its rename. */
    public static final String TEMP_SUFFIX = ".tmp";
    private static final String TEMP_FILE = PartitionMetadataFile.FILE_NAME + TEMP_SUFFIX;
    /** Failures of one batch attached to the first as suppressed exceptions; the rest are dropped. */
    private static final int SUPPRESSED_MAX = 8;

    private final int syncThreadsMax;
    private final ExecutorService syncPool;

    /**
     * @param syncThreadsMax how many temporary files of one batch are fsynced at once; their
     *                       fsyncs overlap, so the file system commits them together instead of
     *                       one journal commit per fsync
     */
    public NioPartitionStore(int syncThreadsMax) {
        Invariants.check(syncThreadsMax >= 1, "syncThreadsMax must be >= 1, got %d", syncThreadsMax);
        this.syncThreadsMax = syncThreadsMax;
        AtomicInteger threads = new AtomicInteger();
        this.syncPool = Executors.newFixedThreadPool(syncThreadsMax, runnable -> {
            Thread thread = new Thread(runnable, "partition-sync-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public List<Entry> list(Path logDir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(logDir)) {
            for (Path path : stream) {
                entries.add(new Entry(path.getFileName().toString(), Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)));
            }
        }
        return entries;
    }

    @Override
    public byte[] readPartitionMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        return readAtMost(entry(logDir, dir).resolve(PartitionMetadataFile.FILE_NAME), maxBytes);
    }

    @Override
    public byte[] readUnpublishedMetadata(Path logDir, String dir, int maxBytes) throws IOException {
        return readAtMost(entry(logDir, dir).resolve(TEMP_FILE), maxBytes);
    }

    private static byte[] readAtMost(Path file, int maxBytes) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return in.readNBytes(maxBytes);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public void writePartition(Path logDir, NewPartition partition) throws IOException {
        Path partitionDir = entry(logDir, partition.dir());
        Files.createDirectory(partitionDir);
        try (FileChannel channel = FileChannel.open(partitionDir.resolve(TEMP_FILE), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(partition.metadata());
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            // Best effort: leave no half-made directory behind (a rescan would take it for a stray).
            try {
                deleteTree(partitionDir);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    @Override
    public void syncPartitionFiles(Path logDir, List<NewPartition> partitions) throws IOException {
        if (partitions.size() == 1 || syncThreadsMax == 1) {
            for (NewPartition partition : partitions) {
                fsyncFile(entry(logDir, partition.dir()).resolve(TEMP_FILE));
            }
            return;
        }
        List<Future<?>> futures = new ArrayList<>(partitions.size());
        for (NewPartition partition : partitions) {
            Path file = entry(logDir, partition.dir()).resolve(TEMP_FILE);
            futures.add(syncPool.submit(() -> {
                fsyncFile(file);
                return null;
            }));
        }
        IOException failure = null;
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = accumulate(failure, new InterruptedIOException("interrupted while syncing under " + logDir));
            } catch (ExecutionException e) {
                failure = accumulate(failure, e.getCause() instanceof IOException io ? io
                        : new IOException("syncing under " + logDir + " failed", e.getCause()));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void publishPartition(Path logDir, String dir) throws IOException {
        Path partitionDir = entry(logDir, dir);
        Files.move(partitionDir.resolve(TEMP_FILE), partitionDir.resolve(PartitionMetadataFile.FILE_NAME),
                StandardCopyOption.ATOMIC_MOVE);
    }

    private static IOException accumulate(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        if (first.getSuppressed().length < SUPPRESSED_MAX) {
            first.addSuppressed(next);
        }
        return first;
    }

    @Override
    public void close() {
        syncPool.shutdown();
    }

    @Override
    public void rename(Path logDir, String from, String to) throws IOException {
        Path source = entry(logDir, from);
        Path target = entry(logDir, to);
        // rename(2) silently replaces an empty target directory; the contract is to fail instead.
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void deleteRecursively(Path logDir, String dir) throws IOException {
        deleteTree(entry(logDir, dir));
    }

    @Override
    public void sync(Path logDir) throws IOException {
        fsyncDirectory(logDir);
    }

    /** {@code logDir/name}, refusing any name that is not one plain path segment. */
    private static Path entry(Path logDir, String name) {
        Invariants.check(!name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0
                && name.indexOf('\0') < 0, "not a single path segment: '%s'", name);
        Path path = logDir.resolve(name);
        Invariants.check(logDir.equals(path.getParent()), "%s is not directly under %s", path, logDir);
        return path;
    }

    private static void fsyncFile(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /** Deletes {@code root} and what is below it, without following links. */
    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
