package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import org.rocksdb.RocksIterator;

/**
 * The stored metadata log of a directory exactly as it rests, for the inspection tools
 * ({@code mq-metadata dump}, {@code verify}, {@code diff}): the log start recorded in
 * {@code meta}, the {@code epochs} index and the raw values of the {@code log} family in key
 * order. Unlike {@link MetadataLogStore#openReadOnly} it checks nothing on open, so a tool can
 * report what is wrong instead of refusing the directory; the caller parses and verifies each
 * value.
 *
 * <p>The database is opened read-only: no lock, no write, no WAL sync, so this works on the
 * directory of a running node (a view as of the moment it opens).
 */
public final class StoredLogReader implements AutoCloseable {
    private final LogDatabase database;

    private StoredLogReader(LogDatabase database) {
        this.database = database;
    }

    /** Opens {@code metadataLogDir}'s database read-only; a {@link StorageException} when there is none. */
    public static StoredLogReader open(Path metadataLogDir) {
        Path databaseDir = metadataLogDir.resolve(MetadataLogStore.DATABASE_DIRECTORY);
        if (!Files.isDirectory(databaseDir) || !Files.exists(databaseDir.resolve("CURRENT"))) {
            throw new StorageException(metadataLogDir + " holds no metadata log (no "
                    + MetadataLogStore.DATABASE_DIRECTORY + " database); --data-dir is a node's metadata.log.dir");
        }
        return new StoredLogReader(LogDatabase.open(databaseDir, true));
    }

    /** The snapshot the log starts after, as {@code meta} records it; null when the log starts at 0. */
    public OffsetAndEpoch recordedLogStart() {
        byte[] value = database.get(database.meta(), Keys.LOG_START);
        return value == null ? null : Keys.snapshotIdOf(value);
    }

    /** The {@code epochs} index: each epoch and the offset it starts at. */
    public TreeMap<Integer, Long> epochStarts() {
        TreeMap<Integer, Long> starts = new TreeMap<>();
        try (RocksIterator iterator = database.newIterator(database.epochs())) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                starts.put(Keys.epochOf(iterator.key()), Keys.offsetValueOf(iterator.value(), "epoch start"));
            }
            database.checkIterator(iterator);
        }
        return starts;
    }

    /**
     * A cursor over the stored batches from the one holding {@code fromOffset} (the batch whose
     * key is the greatest at or below it; the first one if none is) to the end. Close it.
     */
    public Cursor batchesFrom(long fromOffset) {
        RocksIterator iterator = database.newIterator(database.log());
        iterator.seekForPrev(Keys.offsetKey(Math.max(0, fromOffset)));
        if (!iterator.isValid()) {
            iterator.seekToFirst();
        }
        return new Cursor(iterator);
    }

    /** A cursor whose first {@link Cursor#next()} lands on the last stored batch (if any). Close it. */
    public Cursor lastBatch() {
        RocksIterator iterator = database.newIterator(database.log());
        iterator.seekToLast();
        return new Cursor(iterator);
    }

    @Override
    public void close() {
        database.close();
    }

    /** The stored (key, value) pairs of the {@code log} family in key order. */
    public final class Cursor implements AutoCloseable {
        private final RocksIterator iterator;
        private boolean started;

        private Cursor(RocksIterator iterator) {
            this.iterator = iterator;
        }

        /** Moves to the next stored batch; false at the end. */
        public boolean next() {
            if (started) {
                iterator.next();
            }
            started = true;
            if (!iterator.isValid()) {
                database.checkIterator(iterator);
                return false;
            }
            return true;
        }

        /** The base offset the current batch is stored under. */
        public long keyOffset() {
            return Keys.offsetOf(iterator.key());
        }

        /** The current batch's stored bytes (a fresh array). */
        public byte[] value() {
            return iterator.value();
        }

        @Override
        public void close() {
            iterator.close();
        }
    }
}
