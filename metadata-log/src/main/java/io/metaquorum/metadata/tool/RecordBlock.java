package io.metaquorum.metadata.tool;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.util.Arrays;

/**
 * The records of a batch's block (each a varint length, then its bytes) as bounds in the
 * block's own array, reused from batch to batch: no list and no ByteString per record. It
 * splits only a block that is exactly {@code record_count} well-formed records; for anything
 * else {@link #split} returns false and the caller goes through {@code RecordBatches.records},
 * which names the batch's offset in its error.
 */
final class RecordBlock {
    private final BackingArray backing = new BackingArray();
    private byte[] array;
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int count;

    /** Splits {@code block} into {@code expectedCount} records; false (nothing split) when it is not exactly that. */
    boolean split(ByteString block, int expectedCount) {
        count = 0;
        if (expectedCount < 0 || !backing.capture(block)) {
            return false;
        }
        array = backing.array();
        if (starts.length < expectedCount) {
            starts = Arrays.copyOf(starts, Math.max(expectedCount, starts.length * 2));
            ends = Arrays.copyOf(ends, starts.length);
        }
        int position = backing.offset();
        int end = position + backing.length();
        for (int i = 0; i < expectedCount; i++) {
            int length = 0;
            int shift = 0;
            byte next;
            do {
                if (position >= end || shift > 28) {
                    return false;
                }
                next = array[position++];
                length |= (next & 0x7F) << shift;
                shift += 7;
            } while (next < 0);
            if (length < 0 || length > end - position) {
                return false;
            }
            starts[i] = position;
            position += length;
            ends[i] = position;
        }
        if (position != end) {
            return false;
        }
        count = expectedCount;
        return true;
    }

    int count() {
        return count;
    }

    byte[] array() {
        return array;
    }

    int start(int index) {
        return starts[index];
    }

    int end(int index) {
        return ends[index];
    }

    /** Record {@code index} as a ByteString over the same array (for the ordinary decoding path). */
    ByteString record(int index) {
        return UnsafeByteOperations.unsafeWrap(array, starts[index], ends[index] - starts[index]);
    }
}
