package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.StorageException;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * One atomic write across the column families: everything added is applied together or
 * not at all (RocksDB {@link WriteBatch}), buffered or synced as the caller commits it.
 * Operations apply in the order added, so a put after a range delete survives it.
 */
final class LogWrite implements AutoCloseable {
    private final LogDatabase database;
    private final WriteBatch batch = new WriteBatch();

    LogWrite(LogDatabase database) {
        this.database = database;
    }

    LogWrite putBatch(RecordBatch recordBatch) {
        DirectValueBuffer buffer = database.valueBuffer();
        buffer.fill(Keys.offsetKey(recordBatch.getBaseOffset()), recordBatch);
        return apply("put batch", () -> batch.put(database.log(), buffer.key(), buffer.value()));
    }

    /** Deletes the batches keyed in {@code [fromOffset, toOffset)}; an empty range is no operation. */
    LogWrite deleteBatches(long fromOffset, long toOffset) {
        if (fromOffset >= toOffset) {
            return this;
        }
        return apply("delete batches", () -> batch.deleteRange(database.log(), Keys.offsetKey(fromOffset),
                Keys.offsetKey(toOffset)));
    }

    LogWrite putEpochStart(int epoch, long startOffset) {
        return apply("put epoch", () -> batch.put(database.epochs(), Keys.epochKey(epoch),
                Keys.offsetValue(startOffset)));
    }

    LogWrite deleteEpoch(int epoch) {
        return apply("delete epoch", () -> batch.delete(database.epochs(), Keys.epochKey(epoch)));
    }

    LogWrite putMeta(byte[] key, byte[] value) {
        return apply("put meta", () -> batch.put(database.meta(), key, value));
    }

    /** Applies the write to the WAL and memtables without waiting for a sync. */
    void commitBuffered() {
        database.write(batch, false);
    }

    /** Applies the write and syncs the WAL (and with it every earlier buffered write). */
    void commitSynced() {
        database.write(batch, true);
    }

    @Override
    public void close() {
        batch.close();
    }

    private LogWrite apply(String operation, RocksOperation operationBody) {
        try {
            operationBody.run();
        } catch (RocksDBException e) {
            throw new StorageException("RocksDB " + operation + " failed: " + e.getMessage(), e);
        }
        return this;
    }

    @FunctionalInterface
    private interface RocksOperation {
        void run() throws RocksDBException;
    }
}
