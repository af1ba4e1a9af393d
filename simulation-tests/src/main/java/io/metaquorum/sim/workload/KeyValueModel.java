package io.metaquorum.sim.workload;

import io.metaquorum.sim.machine.RecordStateMachine;
import io.metaquorum.sim.machine.StateMachineModel;
import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * The first replicated state machine: a key-value map over a small key space, so that
 * writes overwrite each other and order matters. A record is {@code appendId (8 bytes),
 * key (2 bytes), value (8 bytes)}; a snapshot record is {@code key, value}.
 */
public final class KeyValueModel implements StateMachineModel {
    private static final int RECORD_BYTES = Long.BYTES + Short.BYTES + Long.BYTES;
    private static final int SNAPSHOT_RECORD_BYTES = Short.BYTES + Long.BYTES;
    private final int keyCount;

    public KeyValueModel(int keyCount) {
        this.keyCount = keyCount;
    }

    @Override
    public String name() {
        return "kv" + keyCount;
    }

    @Override
    public RecordStateMachine create() {
        return new KeyValueMachine();
    }

    @Override
    public ByteString clientRecord(long appendId, RandomGenerator random) {
        ByteBuffer buffer = ByteBuffer.allocate(RECORD_BYTES);
        buffer.putLong(appendId).putShort((short) random.nextInt(keyCount)).putLong(random.nextLong());
        return ByteString.copyFrom(buffer.array());
    }

    @Override
    public long appendIdOf(ByteString record) {
        return record.size() == RECORD_BYTES ? readLong(record, 0) : -1;
    }

    static long readLong(ByteString bytes, int from) {
        long value = 0;
        for (int i = from; i < from + Long.BYTES; i++) {
            value = (value << 8) | (bytes.byteAt(i) & 0xFF);
        }
        return value;
    }

    static short readShort(ByteString bytes, int from) {
        return (short) (((bytes.byteAt(from) & 0xFF) << 8) | (bytes.byteAt(from + 1) & 0xFF));
    }

    /** The map itself. Invariant: {@code digest} is the sum of {@link #entryDigest} over entries. */
    private static final class KeyValueMachine implements RecordStateMachine {
        private final TreeMap<Short, Long> entries = new TreeMap<>();
        private long digest;

        @Override
        public void apply(long offset, ByteString record) {
            if (record.size() != RECORD_BYTES) {
                throw new IllegalArgumentException("not a key-value record at offset " + offset);
            }
            put(readShort(record, Long.BYTES), readLong(record, Long.BYTES + Short.BYTES));
        }

        @Override
        public List<ByteString> snapshotRecords() {
            List<ByteString> records = new ArrayList<>(entries.size());
            for (Map.Entry<Short, Long> entry : entries.entrySet()) {
                ByteBuffer buffer = ByteBuffer.allocate(SNAPSHOT_RECORD_BYTES);
                buffer.putShort(entry.getKey()).putLong(entry.getValue());
                records.add(ByteString.copyFrom(buffer.array()));
            }
            return records;
        }

        @Override
        public void restore(long snapshotOffset, List<ByteString> records) {
            entries.clear();
            digest = 0;
            for (ByteString record : records) {
                ByteBuffer buffer = record.asReadOnlyByteBuffer();
                put(buffer.getShort(), buffer.getLong());
            }
        }

        @Override
        public long digest() {
            return digest;
        }

        private void put(short key, long value) {
            Long old = entries.put(key, value);
            if (old != null) {
                digest -= entryDigest(key, old);
            }
            digest += entryDigest(key, value);
        }

        private static long entryDigest(short key, long value) {
            long z = value + 0x9E3779B97F4A7C15L * (key + 1);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }
}
