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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The snapshot directory: one file per snapshot, named
 * {@code <endOffset:20 digits>-<epoch:10 digits>.checkpoint} (KIP-630), holding the content
 * as given. A file is written as {@code .checkpoint.part}, forced to disk, renamed
 * atomically and the directory forced, so a crash leaves either no snapshot or a complete
 * one; leftover {@code .part} files are deleted on open. Files with other names are
 * ignored.
 */
final class SnapshotFiles {
    static final String SUFFIX = ".checkpoint";
    static final String PARTIAL_SUFFIX = ".checkpoint.part";
    private static final Pattern NAME = Pattern.compile("(\\d{20})-(\\d{10})\\.checkpoint");
    /** Newer snapshots end later; at one offset, the higher epoch replaced the lower. */
    static final Comparator<OffsetAndEpoch> BY_AGE =
            Comparator.comparingLong(OffsetAndEpoch::offset).thenComparingInt(OffsetAndEpoch::epoch);

    private final Path directory;

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

    /** Stores {@code content} as snapshot {@code id}, durably and atomically (replacing a file of that id). */
    void write(OffsetAndEpoch id, byte[] content) {
        Path target = path(id);
        Path partial = directory.resolve(fileName(id) + ".part");
        try {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
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
                if (entry.getFileName().toString().endsWith(PARTIAL_SUFFIX)) {
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
