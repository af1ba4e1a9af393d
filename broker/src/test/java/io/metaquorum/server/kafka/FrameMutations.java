package io.metaquorum.server.kafka;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** How the fuzz tests damage a valid stream of frames, the same way for every listener kind. */
final class FrameMutations {
    private FrameMutations() {
    }

    /** One of: unchanged, bytes flipped, cut short, the first size rewritten, bytes appended. */
    static byte[] mutate(byte[] valid, int kind, int where, int value, byte[] extra) {
        byte[] bytes = valid.clone();
        switch (kind) {
            case 1 -> {
                bytes[where % bytes.length] ^= (byte) (value | 1);
                bytes[Math.floorMod(where + value, bytes.length)] ^= (byte) (value >>> 8);
            }
            case 2 -> bytes = Arrays.copyOf(bytes, where % bytes.length);
            case 3 -> ByteBuffer.wrap(bytes).putInt(0, value);
            case 4 -> {
                bytes = Arrays.copyOf(bytes, bytes.length + extra.length);
                System.arraycopy(extra, 0, bytes, valid.length, extra.length);
            }
            default -> {
            }
        }
        return bytes;
    }
}
