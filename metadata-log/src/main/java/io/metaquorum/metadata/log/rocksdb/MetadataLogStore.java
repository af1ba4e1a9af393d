package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A node's metadata log directory, opened once: the RocksDB database in
 * {@code <dir>/rocksdb} and the snapshot files in {@code <dir>/snapshots}, handing out the
 * {@link RocksDbRaftLog} and the {@link RocksDbQuorumStateStore} that share the database.
 *
 * <p>Closing the store, or the log, closes the database; the other object is unusable
 * after that (its calls throw {@link IllegalStateException}).
 */
public final class MetadataLogStore implements AutoCloseable {
    /**
     * Default bound of the in-memory tail the leader serves fetches from: two full fetches,
     * which followers in step never fall behind. A bigger tail only keeps more young objects
     * alive for the garbage collector to copy: at 400,000 records/s, 64 MiB gave a commit p99
     * of 75 ms where 8 MiB gave 38 ms (mq-bench raft-append, one run each).
     */
    public static final long TAIL_CACHE_BYTES_MAX_DEFAULT = 8L * 1024 * 1024;
    static final String DATABASE_DIRECTORY = "rocksdb";
    static final String SNAPSHOT_DIRECTORY = "snapshots";

    private final LogDatabase database;
    private final RocksDbRaftLog raftLog;
    private final RocksDbQuorumStateStore quorumStateStore;

    private MetadataLogStore(LogDatabase database, RocksDbRaftLog raftLog) {
        this.database = database;
        this.raftLog = raftLog;
        this.quorumStateStore = new RocksDbQuorumStateStore(database);
    }

    public static MetadataLogStore open(Path directory) {
        return open(directory, TAIL_CACHE_BYTES_MAX_DEFAULT);
    }

    /**
     * Opens (creating if missing) the metadata log in {@code directory}. Throws
     * {@code CorruptLogException} naming the offset if the tail batch is corrupt, and
     * {@link StorageException} if the directory is unusable or inconsistent.
     */
    public static MetadataLogStore open(Path directory, long tailCacheBytesMax) {
        if (tailCacheBytesMax < 0) {
            throw new IllegalArgumentException("tailCacheBytesMax must not be negative, got " + tailCacheBytesMax);
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new StorageException("cannot create the metadata log directory " + directory, e);
        }
        LogDatabase database = LogDatabase.open(directory.resolve(DATABASE_DIRECTORY));
        try {
            SnapshotFiles snapshots = SnapshotFiles.open(directory.resolve(SNAPSHOT_DIRECTORY));
            return new MetadataLogStore(database, RocksDbRaftLog.open(database, snapshots, tailCacheBytesMax, false));
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * Opens an existing metadata log for reading only: nothing is written, repaired or locked,
     * so it works on the directory of a running node (a view as of the moment it opens).
     * Writing through it fails with a {@link StorageException}.
     */
    public static MetadataLogStore openReadOnly(Path directory) {
        if (!exists(directory)) {
            throw new StorageException("no metadata log in " + directory);
        }
        LogDatabase database = LogDatabase.open(directory.resolve(DATABASE_DIRECTORY), true);
        try {
            SnapshotFiles snapshots = SnapshotFiles.openReadOnly(directory.resolve(SNAPSHOT_DIRECTORY));
            return new MetadataLogStore(database, RocksDbRaftLog.open(database, snapshots, 0, true));
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /** Whether {@code directory} holds a metadata log (a node that ran there at least once). */
    public static boolean exists(Path directory) {
        return Files.isDirectory(directory.resolve(DATABASE_DIRECTORY));
    }

    public RocksDbRaftLog raftLog() {
        return raftLog;
    }

    public RocksDbQuorumStateStore quorumStateStore() {
        return quorumStateStore;
    }

    @Override
    public void close() {
        raftLog.close();
    }
}
