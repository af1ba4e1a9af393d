package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The array, offset and length behind a {@link ByteString}, without a copy: protobuf hands
 * its backing array to a {@link ByteOutput}. The dump reads records straight off the batch
 * value RocksDB returned (aliased, never written). A ByteString in several pieces, or not
 * backed by an array, is not captured; the caller then goes the ordinary way.
 */
final class BackingArray extends ByteOutput {
    private byte[] array;
    private int offset;
    private int length;
    private int pieces;

    /** Captures {@code bytes}' backing array; false when it is not backed by exactly one array. */
    boolean capture(ByteString bytes) {
        pieces = 0;
        array = null;
        try {
            UnsafeByteOperations.unsafeWriteTo(bytes, this);
        } catch (IOException e) {
            return false;
        }
        if (pieces != 1) {
            array = null;
            return false;
        }
        return true;
    }

    byte[] array() {
        return array;
    }

    int offset() {
        return offset;
    }

    int length() {
        return length;
    }

    @Override
    public void write(byte value) {
        pieces = 2;
    }

    @Override
    public void write(byte[] value, int from, int count) {
        writeLazy(value, from, count);
    }

    @Override
    public void writeLazy(byte[] value, int from, int count) {
        array = value;
        offset = from;
        length = count;
        pieces++;
    }

    @Override
    public void write(ByteBuffer value) {
        pieces = 2;
    }

    @Override
    public void writeLazy(ByteBuffer value) {
        pieces = 2;
    }
}
