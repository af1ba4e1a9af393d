package io.metaquorum.process;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Plants corruption in a stopped node's metadata log as a bad disk would: opens its RocksDB
 * database ({@code metadata.log.dir/rocksdb}) directly and overwrites the stored value of one
 * batch in the {@code log} column family. Keys there are batch base offsets, 8 bytes
 * big-endian (the log store's {@code Keys.offsetKey}); values are serialized batches that
 * carry their own CRC32C.
 */
final class StoredBatchCorruption {
    private static final String DATABASE_DIRECTORY = "rocksdb";
    private static final String LOG_FAMILY = "log";

    static {
        RocksDB.loadLibrary();
    }

    private StoredBatchCorruption() {
    }

    /**
     * Overwrites the value of the middle batch (neither the first nor the last, which the log
     * checks on open) with {@code garbage}; returns that batch's base offset.
     */
    static long overwriteMiddleBatch(Path metadataLogDir, byte[] garbage) throws RocksDBException {
        String path = metadataLogDir.resolve(DATABASE_DIRECTORY).toString();
        List<byte[]> familyNames;
        try (Options options = new Options()) {
            familyNames = RocksDB.listColumnFamilies(options, path);
        }
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        int logFamily = -1;
        for (byte[] familyName : familyNames) {
            if (new String(familyName, StandardCharsets.UTF_8).equals(LOG_FAMILY)) {
                logFamily = descriptors.size();
            }
            descriptors.add(new ColumnFamilyDescriptor(familyName));
        }
        if (logFamily < 0) {
            throw new AssertionError("no column family '" + LOG_FAMILY + "' in " + path);
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions(); RocksDB db = RocksDB.open(options, path, descriptors, handles)) {
            try {
                ColumnFamilyHandle log = handles.get(logFamily);
                List<Long> baseOffsets = baseOffsets(db, log);
                if (baseOffsets.size() < 3) {
                    throw new AssertionError("need at least 3 batches in " + path + ", found " + baseOffsets);
                }
                long victim = baseOffsets.get(baseOffsets.size() / 2);
                db.put(log, offsetKey(victim), garbage);
                return victim;
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static List<Long> baseOffsets(RocksDB db, ColumnFamilyHandle log) throws RocksDBException {
        List<Long> offsets = new ArrayList<>();
        try (RocksIterator iterator = db.newIterator(log)) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                offsets.add(ByteBuffer.wrap(iterator.key()).getLong());
            }
            iterator.status();
        }
        return offsets;
    }

    private static byte[] offsetKey(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }
}
