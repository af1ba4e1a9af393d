package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB instance of one metadata log directory and everything native it holds:
 * options, the column families {@code log}, {@code epochs} and {@code meta} (docs/architecture.md §4),
 * and the write options for buffered (WAL written, not synced) and synced writes.
 *
 * <p>Every RocksDB failure becomes a {@link StorageException}. After {@link #close()}
 * every call throws {@link IllegalStateException}: a native handle used after close would
 * crash the JVM instead.
 */
final class LogDatabase implements AutoCloseable {
    static final String LOG_FAMILY = "log";
    static final String EPOCHS_FAMILY = "epochs";
    static final String META_FAMILY = "meta";

    static {
        RocksDB.loadLibrary();
    }

    private final Path directory;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions familyOptions;
    private final RocksDB db;
    /** In descriptor order: default, log, epochs, meta. */
    private final List<ColumnFamilyHandle> handles;
    private final WriteOptions bufferedWrites;
    private final WriteOptions syncedWrites;
    private final ReadOptions reads;
    /** Scratch space of the writing thread (the Raft driver's) for keys and values put into write batches. */
    private final DirectValueBuffer valueBuffer = new DirectValueBuffer();
    private final boolean readOnly;
    private boolean closed;

    private LogDatabase(Path directory, DBOptions dbOptions, ColumnFamilyOptions familyOptions, RocksDB db,
                        List<ColumnFamilyHandle> handles, boolean readOnly) {
        this.directory = directory;
        this.readOnly = readOnly;
        this.dbOptions = dbOptions;
        this.familyOptions = familyOptions;
        this.db = db;
        this.handles = handles;
        this.bufferedWrites = new WriteOptions().setSync(false).setDisableWAL(false);
        this.syncedWrites = new WriteOptions().setSync(true).setDisableWAL(false);
        this.reads = new ReadOptions().setVerifyChecksums(true);
    }

    private static final int WAL_FILES_RECYCLED = 4;
    private static final long MEMTABLE_BYTES = 64L << 20;
    private static final int MEMTABLES_MAX = 4;
    private static final long FILE_BYTES_PER_SYNC = 1L << 20;

    /** Opens (creating if missing) the database in {@code directory}; RocksDB replays its WAL. */
    static LogDatabase open(Path directory) {
        return open(directory, false);
    }

    /**
     * Opens the database; read-only opens an existing one without writing or locking it, so a
     * tool can read the log of a running node (as of the moment it opens).
     */
    static LogDatabase open(Path directory, boolean readOnly) {
        return open(directory, readOnly, MEMTABLE_BYTES);
    }

    /** As {@link #open(Path, boolean)} with memtables of {@code memtableBytes} (tests use small ones). */
    static LogDatabase open(Path directory, boolean readOnly, long memtableBytes) {
        // Recycled WAL files are overwritten in place, so a WAL sync is an fdatasync that
        // changes no file size: about 0.25 ms instead of 2.2 ms on this machine class
        // (measured p50 over 1,500 syncs of one small batch each).
        // A flush or compaction syncs its file every MiB as it writes it: one final sync of a
        // whole 64 MiB file stalled the WAL syncs sharing the disk. Commit p99 at 400,000
        // records/s: 27 and 17 ms against 67 and 71 ms (mq-bench raft-append, two runs each).
        // A WAL file is only released once every column family has flushed what it holds, and
        // the epochs and meta families take a few bytes a day: without a cap on the WAL they
        // never flush, so no WAL file was ever deleted or recycled. The cap makes RocksDB flush
        // them whenever the live WAL outgrows what the log family's memtables can hold.
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(!readOnly).setCreateMissingColumnFamilies(!readOnly)
                .setRecycleLogFileNum(WAL_FILES_RECYCLED).setUseFsync(false).setBytesPerSync(FILE_BYTES_PER_SYNC)
                .setMaxTotalWalSize(memtableBytes * MEMTABLES_MAX);
        // The log is written once, in key order, and read mostly from the tail: large memtables
        // mean fewer flushes, and level compaction rarely has overlapping files to merge.
        // Snappy (RocksDB's default) stays: storing the log uncompressed doubled the bytes
        // flushed to a disk the WAL syncs share, and the commit p50 at 400,000 records/s went
        // from about 4 to 20-25 ms (mq-bench raft-append).
        ColumnFamilyOptions familyOptions = new ColumnFamilyOptions().setWriteBufferSize(memtableBytes)
                .setMaxWriteBufferNumber(MEMTABLES_MAX).setCompressionType(CompressionType.SNAPPY_COMPRESSION);
        List<ColumnFamilyDescriptor> descriptors = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
                new ColumnFamilyDescriptor(LOG_FAMILY.getBytes(StandardCharsets.UTF_8), familyOptions),
                new ColumnFamilyDescriptor(EPOCHS_FAMILY.getBytes(StandardCharsets.UTF_8), familyOptions),
                new ColumnFamilyDescriptor(META_FAMILY.getBytes(StandardCharsets.UTF_8), familyOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            RocksDB db = readOnly ? RocksDB.openReadOnly(dbOptions, directory.toString(), descriptors, handles)
                    : RocksDB.open(dbOptions, directory.toString(), descriptors, handles);
            return new LogDatabase(directory, dbOptions, familyOptions, db, List.copyOf(handles), readOnly);
        } catch (RocksDBException e) {
            handles.forEach(ColumnFamilyHandle::close);
            familyOptions.close();
            dbOptions.close();
            String message = "cannot open the metadata log database in " + directory + ": " + e.getMessage();
            throw !readOnly && isLockHeld(e) ? new LockedLogException(message, e) : new StorageException(message, e);
        }
    }

    /**
     * Whether RocksDB refused the open for its LOCK file: another process holds it ("While lock
     * file ... Resource temporarily unavailable") or this one does ("lock hold by current process").
     * RocksDB reports both as an IOError that names the lock and no status code of their own.
     */
    private static boolean isLockHeld(RocksDBException e) {
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
        return message.contains("lock file") || message.contains("lock hold");
    }

    ColumnFamilyHandle log() {
        return handle(1);
    }

    ColumnFamilyHandle epochs() {
        return handle(2);
    }

    ColumnFamilyHandle meta() {
        return handle(3);
    }

    /** The value under {@code key}, or null. */
    byte[] get(ColumnFamilyHandle family, byte[] key) {
        ensureOpen();
        try {
            return db.get(family, reads, key);
        } catch (RocksDBException e) {
            throw failure("read", e);
        }
    }

    DirectValueBuffer valueBuffer() {
        return valueBuffer;
    }

    LogWrite newWrite() {
        ensureOpen();
        if (readOnly) {
            throw new StorageException("the metadata log in " + directory + " is open read-only");
        }
        return new LogWrite(this);
    }

    void write(WriteBatch batch, boolean sync) {
        ensureOpen();
        try {
            db.write(sync ? syncedWrites : bufferedWrites, batch);
        } catch (RocksDBException e) {
            throw failure(sync ? "synced write" : "write", e);
        }
    }

    /** Makes every write so far durable: one fsync of the WAL however many writes it holds. */
    void syncWal() {
        ensureOpen();
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw failure("WAL sync", e);
        }
    }

    /** A new iterator over {@code family}; the caller closes it and calls {@link #checkIterator}. */
    RocksIterator newIterator(ColumnFamilyHandle family) {
        ensureOpen();
        return db.newIterator(family, reads);
    }

    /** Throws if the iterator stopped on an error rather than at the end of its family. */
    void checkIterator(RocksIterator iterator) {
        try {
            iterator.status();
        } catch (RocksDBException e) {
            throw failure("iteration", e);
        }
    }

    Path directory() {
        return directory;
    }

    /** Closes the column families, the database and the options, in that order. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        handles.forEach(ColumnFamilyHandle::close);
        db.close();
        bufferedWrites.close();
        syncedWrites.close();
        reads.close();
        familyOptions.close();
        dbOptions.close();
    }

    private ColumnFamilyHandle handle(int index) {
        ensureOpen();
        return handles.get(index);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the metadata log database in " + directory + " is closed");
        }
    }

    private StorageException failure(String operation, RocksDBException e) {
        return new StorageException("RocksDB " + operation + " failed in " + directory + ": " + e.getMessage(), e);
    }
}
