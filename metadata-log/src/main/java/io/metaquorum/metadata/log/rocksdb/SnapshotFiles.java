package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The snapshot directory: one file per snapshot, named
 * {@code <endOffset:20 digits>-<epoch:10 digits>.checkpoint} (KIP-630). A snapshot is
 * written chunk by chunk into a temporary {@code .checkpoint.<n>.part} file
 * ({@link SnapshotFileWriter}), forced to disk, renamed atomically and the directory
 * forced, so a crash leaves either no snapshot or a complete one; leftover {@code .part}
 * files are deleted on open. Files with other names are ignored.
 */
final class SnapshotFiles {
    static final String SUFFIX = ".checkpoint";
    /** A temporary file: {@code <snapshot file name>.<writer number>.part}. */
    static final String PART = ".part";
    private static final Pattern NAME = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    /** Newer snapshots end later; at one offset, the higher epoch replaced the lower. */
    static final Comparator<OffsetAndEpoch> BY_AGE =
            Comparator.comparingLong(OffsetAndEpoch::offset).thenComparingInt(OffsetAndEpoch::epoch);

    private final Path directory;
    /** Numbers the temporary files, so that two writers of one id never collide. */
    private final AtomicLong writersCreated = new AtomicLong();

    private SnapshotFiles(Path directory) {
        this.directory = directory;
    }

    /** Opens the directory, creating it if missing and deleting any partly written snapshot. */
    static SnapshotFiles open(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new StorageException("cannot create the snapshot directory " + directory, e);
        }
        SnapshotFiles files = new SnapshotFiles(directory);
        files.deletePartial();
        return files;
    }

    /** The snapshot directory as it is: nothing created, nothing cleaned up. */
    static SnapshotFiles openReadOnly(Path directory) {
        return new SnapshotFiles(directory);
    }

    static String fileName(OffsetAndEpoch id) {
        return String.format("%020d-%010d%s", id.offset(), id.epoch(), SUFFIX);
    }

    Path path(OffsetAndEpoch id) {
        return directory.resolve(fileName(id));
    }

    /** The stored snapshots, oldest first. */
    List<OffsetAndEpoch> list() {
        List<OffsetAndEpoch> ids = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                Matcher matcher = NAME.matcher(entry.getFileName().toString());
                if (matcher.matches()) {
                    ids.add(new OffsetAndEpoch(Long.parseLong(matcher.group(1)), Integer.parseInt(matcher.group(2))));
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new StorageException("cannot list the snapshot directory " + directory, e);
        }
        ids.sort(BY_AGE);
        return ids;
    }

    /**
     * A writer of snapshot {@code id} into a temporary file of its own (writers of one id
     * never share one). Thread-safe: the snapshot-writer thread calls it while the driver runs.
     */
    SnapshotFileWriter newWriter(OffsetAndEpoch id) {
        Path partial = directory.resolve(fileName(id) + "." + writersCreated.incrementAndGet() + PART);
        return new SnapshotFileWriter(this, id, partial);
    }

    /**
     * Gives the frozen {@code writer}'s file its final name, atomically and durably
     * (replacing a file of that id): the rename, then the directory forced.
     */
    void commit(SnapshotFileWriter writer) {
        if (!writer.belongsTo(this) || !writer.isFrozen()) {
            throw new IllegalArgumentException("snapshot " + writer.id() + " is not a frozen snapshot of " + directory);
        }
        Path target = path(writer.id());
        try {
            Files.move(writer.partial(), target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            writer.markInstalled();
            forceDirectory();
        } catch (IOException e) {
            throw new StorageException("cannot write snapshot file " + target, e);
        }
    }

    long size(OffsetAndEpoch id) {
        try {
            return Files.size(path(id));
        } catch (IOException e) {
            throw new StorageException("cannot stat snapshot file " + path(id), e);
        }
    }

    /** Up to {@code maxBytes} from {@code position}; fewer only at the end of the file. */
    byte[] read(OffsetAndEpoch id, long position, int maxBytes) {
        Path file = path(id);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (position < 0 || position > size || maxBytes < 0) {
                throw new IllegalArgumentException("snapshot " + id + " of " + size
                        + " bytes cannot be read at position " + position + " for " + maxBytes + " bytes");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(maxBytes, size - position));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, position + buffer.position()) < 0) {
                    throw new StorageException("snapshot file " + file + " ended early at "
                            + (position + buffer.position()));
                }
            }
            return buffer.array();
        } catch (IOException e) {
            throw new StorageException("cannot read snapshot file " + file, e);
        }
    }

    /** Deletes snapshot {@code id}; a crash before it completes is repaired on the next open. */
    void delete(OffsetAndEpoch id) {
        try {
            Files.deleteIfExists(path(id));
        } catch (IOException e) {
            throw new StorageException("cannot delete snapshot file " + path(id), e);
        }
    }

    private void deletePartial() {
        try (Stream<Path> entries = Files.list(directory)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (name.endsWith(PART) && name.contains(SUFFIX)) {
                    Files.delete(entry);
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot delete partial snapshots in " + directory, e);
        }
    }

    /** Makes the rename durable: a directory entry is data of the directory. */
    private void forceDirectory() throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
