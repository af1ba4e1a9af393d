package io.metaquorum.metadata.log.rocksdb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/** Direct RocksDB access to a closed log's database, to plant corruption as a bad disk would. */
final class RawDatabase {
    private RawDatabase() {
    }

    static byte[] get(Path logDirectory, String family, byte[] key) throws RocksDBException {
        return withFamily(logDirectory, family, (db, handle) -> db.get(handle, key));
    }

    static void put(Path logDirectory, String family, byte[] key, byte[] value) throws RocksDBException {
        withFamily(logDirectory, family, (db, handle) -> {
            db.put(handle, key, value);
            return null;
        });
    }

    static void delete(Path logDirectory, String family, byte[] key) throws RocksDBException {
        withFamily(logDirectory, family, (db, handle) -> {
            db.delete(handle, key);
            return null;
        });
    }

    private static byte[] withFamily(Path logDirectory, String family, RawAccess access) throws RocksDBException {
        List<String> names = List.of("default", LogDatabase.LOG_FAMILY, LogDatabase.EPOCHS_FAMILY,
                LogDatabase.META_FAMILY);
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        names.forEach(name -> descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8))));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        Path path = logDirectory.resolve(MetadataLogStore.DATABASE_DIRECTORY);
        try (DBOptions options = new DBOptions();
             RocksDB db = RocksDB.open(options, path.toString(), descriptors, handles)) {
            try {
                return access.apply(db, handles.get(names.indexOf(family)));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    @FunctionalInterface
    private interface RawAccess {
        byte[] apply(RocksDB db, ColumnFamilyHandle handle) throws RocksDBException;
    }
}
