package io.metaquorum.sim.machine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Follows every client append from acceptance to acknowledgment. An append is acknowledged
 * the way a controller acknowledges a write: when the node that accepted it as leader
 * applies the record, carrying its append id, at the offset it was promised. Appends that
 * never commit there (the leader lost its epoch) expire unacknowledged.
 *
 * <p>Invariants: append ids are unique and increasing; an append is acknowledged at most
 * once; {@code pending} is in acceptance order.
 */
public final class AppendTracker implements CommitSink {
    private final LinkedHashMap<Long, PendingAppend> pending = new LinkedHashMap<>();
    private final List<AckedAppend> newlyAcked = new ArrayList<>();
    private long nextAppendId = 1;
    private long acceptedCount;
    private long ackedCount;
    private long latestAckedAcceptMs = -1;

    /** A record accepted by {@code nodeId} as leader of {@code epoch}, to land at {@code offset}. */
    public record PendingAppend(long appendId, int nodeId, int epoch, long offset, long acceptedAtMs) {
    }

    /** An acknowledged append and where it committed. */
    public record AckedAppend(long appendId, long offset, int nodeId, long acceptedAtMs) {
    }

    public long nextAppendId() {
        return nextAppendId++;
    }

    public void onAccepted(PendingAppend append) {
        pending.put(append.appendId(), append);
        acceptedCount++;
    }

    @Override
    public void onClientRecordApplied(int nodeId, long offset, long appendId) {
        PendingAppend append = pending.get(appendId);
        if (append != null && append.nodeId() == nodeId && append.offset() == offset) {
            pending.remove(appendId);
            newlyAcked.add(new AckedAppend(appendId, offset, nodeId, append.acceptedAtMs()));
            ackedCount++;
            latestAckedAcceptMs = Math.max(latestAckedAcceptMs, append.acceptedAtMs());
        }
    }

    /** The acknowledgments since the last call, for the checker. */
    public List<AckedAppend> drainAcked() {
        if (newlyAcked.isEmpty()) {
            return List.of();
        }
        List<AckedAppend> drained = new ArrayList<>(newlyAcked);
        newlyAcked.clear();
        return drained;
    }

    /** Gives up on appends accepted before {@code cutoffMs}. */
    public void expireBefore(long cutoffMs) {
        Iterator<PendingAppend> appends = pending.values().iterator();
        while (appends.hasNext() && appends.next().acceptedAtMs() < cutoffMs) {
            appends.remove();
        }
    }

    /** The acceptance time of the latest-accepted acknowledged append, or -1. */
    public long latestAckedAcceptMs() {
        return latestAckedAcceptMs;
    }

    public long acceptedCount() {
        return acceptedCount;
    }

    public long ackedCount() {
        return ackedCount;
    }
}
