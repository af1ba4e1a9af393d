package io.metaquorum.metadata.log.rocksdb;

import io.metaquorum.common.invariant.Invariants;
import java.util.Arrays;

/**
 * The base offsets of the batches in the log, ascending, in a primitive array: 8 bytes a
 * batch instead of a boxed map entry, so a long log between snapshots stays cheap to
 * index. The log grows at the back (append), shrinks at the back (truncation) and at the
 * front (a snapshot moves the log start); lookups are binary searches.
 *
 * <p>Invariant: {@code offsets[head..tail)} strictly ascending.
 */
final class BatchOffsets {
    private static final int INITIAL_CAPACITY = 64;

    private long[] offsets = new long[INITIAL_CAPACITY];
    private int head;
    private int tail;

    int size() {
        return tail - head;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** The {@code index}-th base offset, counting from the first batch of the log. */
    long get(int index) {
        Invariants.check(index >= 0 && index < size(), "batch index %d outside [0, %d)", index, size());
        return offsets[head + index];
    }

    long last() {
        return get(size() - 1);
    }

    void add(long baseOffset) {
        Invariants.check(isEmpty() || baseOffset > last(), "base offset %d not above the last %d",
                baseOffset, isEmpty() ? -1 : last());
        if (tail == offsets.length) {
            makeRoom();
        }
        offsets[tail++] = baseOffset;
    }

    /** The index of the last base offset {@code <= offset}, or -1 when every one is above it. */
    int floorIndex(long offset) {
        int found = Arrays.binarySearch(offsets, head, tail, offset);
        int absolute = found >= 0 ? found : -found - 2;
        return absolute - head;
    }

    /** The index of {@code baseOffset}, or -1 when no batch starts there. */
    int indexOf(long baseOffset) {
        int found = Arrays.binarySearch(offsets, head, tail, baseOffset);
        return found >= 0 ? found - head : -1;
    }

    /** Keeps the first {@code count} base offsets. */
    void keepFirst(int count) {
        Invariants.check(count >= 0 && count <= size(), "cannot keep %d of %d batches", count, size());
        tail = head + count;
    }

    /** Drops the first {@code count} base offsets. */
    void dropFirst(int count) {
        Invariants.check(count >= 0 && count <= size(), "cannot drop %d of %d batches", count, size());
        head += count;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    void clear() {
        head = 0;
        tail = 0;
    }

    /** Compacts the live range to the front when at least half the array is dropped, else grows it. */
    private void makeRoom() {
        int size = size();
        long[] target = head >= offsets.length / 2 ? offsets : new long[offsets.length * 2];
        System.arraycopy(offsets, head, target, 0, size);
        offsets = target;
        head = 0;
        tail = size;
    }
}
