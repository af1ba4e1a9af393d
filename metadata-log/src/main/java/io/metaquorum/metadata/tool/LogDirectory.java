package io.metaquorum.metadata.tool;

import io.metaquorum.metadata.log.rocksdb.StoredLogReader;
import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.RecordBatches;
import io.metaquorum.raft.storage.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A node's {@code metadata.log.dir} opened for inspection, read-only: the stored log, where
 * it starts and ends, and its snapshots. Opening refuses, with one clear message, a path that
 * does not exist, is not a directory, or holds no metaquorum metadata log.
 */
public final class LogDirectory implements AutoCloseable {
    private final Path path;
    private final StoredLogReader reader;
    private final OffsetAndEpoch logStartSnapshot;
    private final long startOffset;
    private final long endOffset;

    private LogDirectory(Path path, StoredLogReader reader) {
        this.path = path;
        this.reader = reader;
        this.logStartSnapshot = reader.recordedLogStart();
        long start = logStartSnapshot == null ? 0 : logStartSnapshot.offset();
        long end = start;
        try (StoredLogReader.Cursor last = reader.lastBatch()) {
            if (last.next()) {
                end = RecordBatches.endOffset(StoredBatches.parse(last.keyOffset(), last.value()));
            }
        }
        this.startOffset = start;
        this.endOffset = end;
    }

    /** Opens {@code path}; a {@link StorageException} with a one-line reason when it is not a metadata log directory. */
    public static LogDirectory open(Path path) {
        if (!Files.exists(path)) {
            throw new StorageException(path + " does not exist; --data-dir is a node's metadata.log.dir");
        }
        if (!Files.isDirectory(path)) {
            throw new StorageException(path + " is not a directory; --data-dir is a node's metadata.log.dir");
        }
        StoredLogReader reader = StoredLogReader.open(path);
        try {
            return new LogDirectory(path, reader);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public StoredLogReader reader() {
        return reader;
    }

    /** The snapshot the log starts after ({@code meta}'s record); null when the log starts at 0. */
    public OffsetAndEpoch logStartSnapshot() {
        return logStartSnapshot;
    }

    public long startOffset() {
        return startOffset;
    }

    public long endOffset() {
        return endOffset;
    }

    /** Throws {@link IllegalArgumentException} unless {@code offset} is a record of the log (or its end). */
    public void requireOffsetWithin(String option, long offset) {
        if (offset < 0 || offset > endOffset) {
            throw new IllegalArgumentException(option + " " + offset + " is outside the log, which holds offsets ["
                    + startOffset + ", " + endOffset + ")");
        }
    }

    @Override
    public void close() {
        reader.close();
    }
}
