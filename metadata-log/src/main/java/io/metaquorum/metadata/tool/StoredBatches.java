package io.metaquorum.metadata.tool;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.metaquorum.metadata.log.rocksdb.StoredLogReader;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.CorruptLogException;
import io.metaquorum.raft.storage.RecordBatches;

/**
 * Walks the batches a {@link StoredLogReader} holds, in offset order, parsing and verifying
 * each one: it must parse, carry the base offset it is stored under, pass its CRC32C, and
 * start where the previous one ended. The first failure is a {@link CorruptLogException}
 * naming the offset (the batch's base offset, or the first missing offset of a gap); the
 * walk stops there, so nothing after a bad batch is ever shown as if it were sound.
 */
public final class StoredBatches {
    /** Receives each verified batch; returns false to stop the walk. */
    @FunctionalInterface
    public interface Visitor {
        boolean onBatch(RecordBatch batch, int storedBytes);
    }

    private StoredBatches() {
    }

    /** Visits the batches from the one holding {@code fromOffset} on; returns the end offset reached. */
    public static long walk(StoredLogReader reader, long fromOffset, Visitor visitor) {
        long expected = -1;
        try (StoredLogReader.Cursor cursor = reader.batchesFrom(fromOffset)) {
            while (cursor.next()) {
                long key = cursor.keyOffset();
                if (expected >= 0 && key != expected) {
                    throw new CorruptLogException(Math.min(key, expected), key > expected
                            ? "offsets [" + expected + ", " + key + ") are missing from the log"
                            : "the batch stored at " + key + " overlaps the previous one, which ends at " + expected);
                }
                byte[] value = cursor.value();
                RecordBatch batch = parse(key, value);
                expected = RecordBatches.endOffset(batch);
                if (expected <= fromOffset) {
                    continue;
                }
                if (!visitor.onBatch(batch, value.length)) {
                    break;
                }
            }
        }
        return expected;
    }

    /** Parses and CRC-checks a stored batch; any problem names its offset. */
    public static RecordBatch parse(long key, byte[] value) {
        RecordBatch batch;
        try {
            batch = parseAliased(value);
        } catch (InvalidProtocolBufferException e) {
            throw new CorruptLogException(key, "the stored batch does not parse: " + e.getMessage());
        }
        if (batch.getBaseOffset() != key) {
            throw new CorruptLogException(key, "the batch stored at " + key + " claims base offset "
                    + batch.getBaseOffset());
        }
        if (!RecordBatches.isValid(batch)) {
            throw new CorruptLogException(key, "CRC32C mismatch (or an empty batch)");
        }
        return batch;
    }

    /**
     * The batch with its record block pointing into {@code value}, which RocksDB returned
     * fresh and nothing writes to. A CodedInputStream over a plain array copies every
     * {@code bytes} field even with aliasing on; over an array wrapped as a ByteString it is
     * immutable, and aliases: one copy of the whole log less per dump or verify.
     */
    private static RecordBatch parseAliased(byte[] value) throws InvalidProtocolBufferException {
        CodedInputStream input = UnsafeByteOperations.unsafeWrap(value).newCodedInput();
        input.enableAliasing(true);
        input.setSizeLimit(Integer.MAX_VALUE);
        RecordBatch batch = RecordBatch.parser().parseFrom(input);
        input.checkLastTagWas(0);
        return batch;
    }
}
