package io.metaquorum.raft.storage;

import com.google.protobuf.ByteOutput;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A CRC32C that a {@link com.google.protobuf.ByteString} writes itself into, so the
 * checksum reads the string's backing arrays in place (no copy, no scratch buffer).
 */
final class Crc32cOutput extends ByteOutput {
    private final CRC32C crc = new CRC32C();

    int value() {
        return (int) crc.getValue();
    }

    @Override
    public void write(byte value) {
        crc.update(value);
    }

    @Override
    public void write(byte[] value, int offset, int length) {
        crc.update(value, offset, length);
    }

    @Override
    public void writeLazy(byte[] value, int offset, int length) {
        crc.update(value, offset, length);
    }

    @Override
    public void write(ByteBuffer value) {
        crc.update(value);
    }

    @Override
    public void writeLazy(ByteBuffer value) {
        crc.update(value);
    }
}
