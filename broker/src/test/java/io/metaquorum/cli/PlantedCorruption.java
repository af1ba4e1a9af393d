package io.metaquorum.cli;

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

/**
 * Damages one stored batch of a closed metadata log as a bad disk would: flips one bit in the
 * middle of the value stored under the batch's base offset (8 bytes big-endian in the
 * {@code log} column family), so the batch fails its CRC32C (or no longer parses).
 */
final class PlantedCorruption {
    static {
        RocksDB.loadLibrary();
    }

    private PlantedCorruption() {
    }

    static void flipMiddleBit(Path metadataLogDir, long baseOffset) throws RocksDBException {
        String path = metadataLogDir.resolve("rocksdb").toString();
        List<byte[]> names;
        try (Options options = new Options()) {
            names = RocksDB.listColumnFamilies(options, path);
        }
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        int log = -1;
        for (byte[] name : names) {
            if (new String(name, StandardCharsets.UTF_8).equals("log")) {
                log = descriptors.size();
            }
            descriptors.add(new ColumnFamilyDescriptor(name));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions(); RocksDB db = RocksDB.open(options, path, descriptors, handles)) {
            try {
                byte[] key = java.nio.ByteBuffer.allocate(Long.BYTES).putLong(baseOffset).array();
                byte[] value = db.get(handles.get(log), key);
                if (value == null) {
                    throw new AssertionError("no batch stored at " + baseOffset);
                }
                value[value.length / 2] ^= 0x01;
                db.put(handles.get(log), key, value);
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
