package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.SnapshotWriter;
import io.metaquorum.raft.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A snapshot file being written: chunks go to a temporary {@code .part} file in the
 * snapshot directory as they come (nothing is held in memory), {@link #freeze} forces it to
 * disk, and {@link SnapshotFiles#commit} renames it to its final name when the log installs
 * it. Until then the log does not see it; a crash leaves only a {@code .part} file, which
 * the next open deletes. Written by one thread at a time (the snapshot-writer thread, or
 * the driver for a FetchSnapshot download).
 *
 * <p>Invariant: the channel is open exactly while the writer is open and not yet frozen;
 * {@code size} is the file's length.
 */
final class SnapshotFileWriter implements SnapshotWriter {
    private final SnapshotFiles files;
    private final OffsetAndEpoch id;
    private final Path partial;
    private FileChannel channel;
    private long size;
    private boolean frozen;
    private boolean closed;
    private boolean installed;

    SnapshotFileWriter(SnapshotFiles files, OffsetAndEpoch id, Path partial) {
        if (id.offset() < 0 || id.epoch() < 0) {
            throw new IllegalArgumentException("snapshot id must not be negative: " + id);
        }
        this.files = files;
        this.id = id;
        this.partial = partial;
        try {
            this.channel = FileChannel.open(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StorageException("cannot create snapshot file " + partial, e);
        }
    }

    @Override
    public OffsetAndEpoch id() {
        return id;
    }

    @Override
    public void append(byte[] chunk) {
        requireOpen();
        ByteBuffer buffer = ByteBuffer.wrap(chunk);
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            throw new StorageException("cannot write snapshot file " + partial + " at byte position " + size, e);
        }
        size += chunk.length;
    }

    @Override
    public long sizeBytes() {
        return size;
    }

    @Override
    public void freeze() {
        requireOpen();
        try {
            channel.force(true);
            channel.close();
        } catch (IOException e) {
            throw new StorageException("cannot sync snapshot file " + partial, e);
        }
        channel = null;
        frozen = true;
    }

    @Override
    public boolean isFrozen() {
        return frozen;
    }

    /** The temporary file, for {@link SnapshotFiles#commit}. */
    Path partial() {
        return partial;
    }

    boolean belongsTo(SnapshotFiles directory) {
        return files == directory;
    }

    /** The file now has its final name: closing keeps it. */
    void markInstalled() {
        installed = true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (channel != null) {
                channel.close();
                channel = null;
            }
            if (!installed) {
                Files.deleteIfExists(partial);
            }
        } catch (IOException e) {
            throw new StorageException("cannot discard snapshot file " + partial, e);
        }
    }

    private void requireOpen() {
        if (closed || frozen) {
            throw new IllegalStateException("snapshot " + id + " is " + (closed ? "closed" : "frozen")
                    + ": nothing more can be written");
        }
    }
}
