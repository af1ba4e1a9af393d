package io.metaquorum.metadata.log.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.metaquorum.protocol.RecordBatch;
import io.metaquorum.raft.storage.RecordBatches;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectValueBufferTest {
    private static RecordBatch batch(long baseOffset, int records, int recordBytes) {
        List<ByteString> block = Collections.nCopies(records, ByteString.copyFrom(new byte[recordBytes]));
        return RecordBatches.build(baseOffset, 3, 1_000L, false, block);
    }

    private static byte[] bytes(ByteBuffer view) {
        byte[] copy = new byte[view.remaining()];
        view.duplicate().get(copy);
        return copy;
    }

    @Test
    void holdsTheOffsetKeyAndTheSerializedMessage() {
        DirectValueBuffer buffer = new DirectValueBuffer();
        RecordBatch batch = batch(42, 10, 100);

        buffer.fill(Keys.offsetKey(42), batch);

        assertTrue(buffer.key().isDirect() && buffer.value().isDirect());
        assertArrayEquals(Keys.offsetKey(42), bytes(buffer.key()));
        assertArrayEquals(batch.toByteArray(), bytes(buffer.value()));
    }

    @Test
    void growsForAMessageLargerThanItAndStaysCorrectWhenReusedForASmallerOne() {
        DirectValueBuffer buffer = new DirectValueBuffer();
        int initial = buffer.capacity();
        RecordBatch large = batch(1_000_000L, 2_000, 100);

        buffer.fill(Keys.offsetKey(1_000_000L), large);

        assertTrue(buffer.capacity() >= Long.BYTES + large.getSerializedSize() && buffer.capacity() > initial);
        assertArrayEquals(large.toByteArray(), bytes(buffer.value()));

        RecordBatch small = batch(7, 1, 5);
        buffer.fill(Keys.offsetKey(7), small);
        assertEquals(small.getSerializedSize(), buffer.value().remaining());
        assertArrayEquals(small.toByteArray(), bytes(buffer.value()));
        assertArrayEquals(Keys.offsetKey(7), bytes(buffer.key()));
    }
}
