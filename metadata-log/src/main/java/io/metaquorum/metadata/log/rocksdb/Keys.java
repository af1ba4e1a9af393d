package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.raft.storage.OffsetAndEpoch;
import io.metaquorum.raft.storage.StorageException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Key and value encodings of the three column families. Offsets and epochs are never
 * negative, so big-endian bytes sort in numeric order and RocksDB's default comparator
 * keeps the {@code log} and {@code epochs} families in log order.
 */
final class Keys {
    /** {@code meta}: the id of the snapshot the log starts after (absent: the log starts at 0). */
    static final byte[] LOG_START = "log_start".getBytes(StandardCharsets.UTF_8);
    /** {@code meta}: the serialized {@code QuorumStateRecord}. */
    static final byte[] QUORUM_STATE = "quorum_state".getBytes(StandardCharsets.UTF_8);

    private Keys() {
    }

    static byte[] offsetKey(long offset) {
        return ByteBuffer.allocate(Long.BYTES).putLong(offset).array();
    }

    static long offsetOf(byte[] key) {
        if (key.length != Long.BYTES) {
            throw new StorageException("log key of " + key.length + " bytes, expected " + Long.BYTES);
        }
        return ByteBuffer.wrap(key).getLong();
    }

    static byte[] epochKey(int epoch) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(epoch).array();
    }

    static int epochOf(byte[] key) {
        if (key.length != Integer.BYTES) {
            throw new StorageException("epoch key of " + key.length + " bytes, expected " + Integer.BYTES);
        }
        return ByteBuffer.wrap(key).getInt();
    }

    static byte[] offsetValue(long offset) {
        return offsetKey(offset);
    }

    static long offsetValueOf(byte[] value, String what) {
        if (value.length != Long.BYTES) {
            throw new StorageException(what + " of " + value.length + " bytes, expected " + Long.BYTES);
        }
        return ByteBuffer.wrap(value).getLong();
    }

    static byte[] snapshotIdValue(OffsetAndEpoch id) {
        return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(id.offset()).putInt(id.epoch()).array();
    }

    static OffsetAndEpoch snapshotIdOf(byte[] value) {
        if (value.length != Long.BYTES + Integer.BYTES) {
            throw new StorageException("log start record of " + value.length + " bytes, expected "
                    + (Long.BYTES + Integer.BYTES));
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return new OffsetAndEpoch(buffer.getLong(), buffer.getInt());
    }
}
