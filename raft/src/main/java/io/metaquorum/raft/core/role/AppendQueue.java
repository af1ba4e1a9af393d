package io.metaquorum.raft.core.role;

import com.google.protobuf.ByteString;
import io.metaquorum.common.invariant.Invariants;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Appends accepted by the leader and not yet in the log. Each append is atomic: its records
 * go into one batch together, never split across two (a controller operation commits whole
 * or not at all). Natural batching: everything that queued while the last sync ran goes out
 * as the next batch(es), several appends sharing a batch while they fit; with a linger the
 * leader waits until the oldest append is that old or a batch is full.
 *
 * <p>Invariants: {@code queuedRecords} and {@code queuedBytes} are the sums over the queued
 * appends; every queued append is non-empty and fits one batch (the caller checks this
 * before {@link #add}, against the same limits it later passes to {@link #take}).
 */
public final class AppendQueue {
    /** The records of one append call, kept together. */
    private record Entry(List<ByteString> records, long bytes, long queuedMs) {
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private int queuedRecords;
    private long queuedBytes;

    /** Records queued, over all appends. */
    public int size() {
        return queuedRecords;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public long queuedBytes() {
        return queuedBytes;
    }

    /** When the oldest queued append was queued; -1 when empty. */
    public long oldestQueuedMs() {
        Entry oldest = entries.peekFirst();
        return oldest == null ? -1 : oldest.queuedMs();
    }

    /** Queues one atomic append; {@code records} must be non-empty. */
    public void add(List<ByteString> records, long nowMs) {
        Invariants.check(!records.isEmpty(), "an append needs at least one record");
        long bytes = 0;
        for (ByteString record : records) {
            bytes += record.size();
        }
        entries.add(new Entry(List.copyOf(records), bytes, nowMs));
        queuedRecords += records.size();
        queuedBytes += bytes;
    }

    /**
     * Removes and returns the records of the next batch: whole appends, oldest first, as many
     * as fit in {@code recordsMax} records and {@code bytesMax} bytes (at least one append,
     * which fits by the admission check). Empty when nothing is queued.
     */
    public List<ByteString> take(int recordsMax, int bytesMax) {
        List<ByteString> taken = new ArrayList<>();
        long bytes = 0;
        while (!entries.isEmpty()) {
            Entry next = entries.peekFirst();
            boolean fits = taken.size() + next.records().size() <= recordsMax && bytes + next.bytes() <= bytesMax;
            if (!fits) {
                Invariants.check(!taken.isEmpty(), "a queued append of %d records / %d bytes exceeds a batch (%d / %d)",
                        next.records().size(), next.bytes(), recordsMax, bytesMax);
                break;
            }
            entries.pollFirst();
            taken.addAll(next.records());
            bytes += next.bytes();
        }
        queuedRecords -= taken.size();
        queuedBytes -= bytes;
        return taken;
    }
}
