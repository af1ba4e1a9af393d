package io.metaquorum.raft.core.role;

import com.google.protobuf.ByteString;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Records accepted by the leader and not yet in the log. Natural batching: everything that
 * queued while the last sync ran goes out as the next batch(es); with a linger the leader
 * waits until the oldest record is that old or a batch is full.
 *
 * <p>Invariant: {@code queuedRecords <= appendQueueRecordsMax}.
 */
public final class AppendQueue {
    private final ArrayDeque<ByteString> records = new ArrayDeque<>();
    private long queuedBytes;
    private long oldestQueuedMs = -1;

    public int size() {
        return records.size();
    }

    public boolean isEmpty() {
        return records.isEmpty();
    }

    public long queuedBytes() {
        return queuedBytes;
    }

    public long oldestQueuedMs() {
        return oldestQueuedMs;
    }

    public void add(List<ByteString> batch, long nowMs) {
        if (records.isEmpty()) {
            oldestQueuedMs = nowMs;
        }
        for (ByteString record : batch) {
            records.add(record);
            queuedBytes += record.size();
        }
    }

    /** Removes and returns up to {@code recordsMax} records / about {@code bytesMax} bytes (at least one). */
    public List<ByteString> take(int recordsMax, int bytesMax) {
        List<ByteString> taken = new ArrayList<>(Math.min(recordsMax, records.size()));
        long bytes = 0;
        while (!records.isEmpty() && taken.size() < recordsMax) {
            long next = bytes + records.peekFirst().size();
            if (!taken.isEmpty() && next > bytesMax) {
                break;
            }
            bytes = next;
            taken.add(records.pollFirst());
        }
        queuedBytes -= bytes;
        oldestQueuedMs = records.isEmpty() ? -1 : oldestQueuedMs;
        return taken;
    }
}
