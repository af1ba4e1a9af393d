package io.metaquorum.metadata.log.rocksdb;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * A reusable direct buffer that a key and a serialized value are written into for
 * RocksDB's {@code WriteBatch.put(ByteBuffer, ByteBuffer)}, which copies them straight into
 * the write batch. Serializing a batch with {@code toByteArray()} instead allocates a
 * zeroed heap array per batch (up to a MiB, a humongous object for G1) that JNI then
 * copies once more: on every node this was one of the largest allocation sites under load.
 *
 * <p>Confined to the thread that writes the log; the views it returns are valid until the
 * next call.
 */
final class DirectValueBuffer {
    private static final int INITIAL_BYTES = 64 << 10;

    private ByteBuffer buffer = ByteBuffer.allocateDirect(INITIAL_BYTES);
    private ByteBuffer key;
    private ByteBuffer value;

    /** Writes {@code keyBytes} and {@code message} into the buffer; read them with {@link #key()} and {@link #value()}. */
    void fill(byte[] keyBytes, MessageLite message) {
        int size = message.getSerializedSize();
        ensureCapacity(keyBytes.length + size);
        buffer.clear();
        buffer.put(keyBytes);
        value = buffer.slice(keyBytes.length, size);
        CodedOutputStream output = CodedOutputStream.newInstance(value);
        try {
            message.writeTo(output);
            output.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("serializing into a direct buffer of " + size + " bytes", e);
        }
        output.checkNoSpaceLeft();
        value.rewind();
        key = buffer.slice(0, keyBytes.length);
    }

    ByteBuffer key() {
        return key;
    }

    ByteBuffer value() {
        return value;
    }

    int capacity() {
        return buffer.capacity();
    }

    private void ensureCapacity(int bytes) {
        if (buffer.capacity() < bytes) {
            // Doubling keeps the number of reallocations logarithmic in the largest batch seen.
            buffer = ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, Math.max(bytes, 2L * buffer.capacity())));
        }
    }
}
