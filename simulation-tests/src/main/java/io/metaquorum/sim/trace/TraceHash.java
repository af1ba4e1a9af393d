package io.metaquorum.sim.trace;

/**
 * A running 64-bit digest of everything that happens in a run, in order: each event's
 * time, kind and node, every delivered message's bytes and every node's state after each
 * event. Two runs of the same seed must end with the same value; a difference means some
 * choice did not flow from the seed (wall clock, threads, hash-order iteration).
 *
 * <p>Not cryptographic: a multiply-xorshift mix in the style of SplitMix64, cheap enough to
 * feed every message through.
 */
public final class TraceHash {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private long state = 0x2545F4914F6CDD1DL;

    public void mix(long value) {
        long z = state + GOLDEN + value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        state = z ^ (z >>> 31);
    }

    public void mix(byte[] bytes) {
        mix(bytes.length);
        int index = 0;
        for (; index + 8 <= bytes.length; index += 8) {
            long word = 0;
            for (int shift = 0; shift < 64; shift += 8) {
                word |= (bytes[index + (shift >>> 3)] & 0xFFL) << shift;
            }
            mix(word);
        }
        long tail = 0;
        for (int shift = 0; index < bytes.length; index++, shift += 8) {
            tail |= (bytes[index] & 0xFFL) << shift;
        }
        mix(tail);
    }

    public long value() {
        return state;
    }

    /** The digest as 16 hex digits, as printed in {@code seed S events E trace HASH}. */
    public String hex() {
        return String.format("%016x", state);
    }
}
