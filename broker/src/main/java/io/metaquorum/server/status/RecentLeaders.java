package io.metaquorum.server.status;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The last {@link #KEPT} leaders this node learned of, newest last, for the status page: one
 * entry per epoch in which a leader was announced. Recorded on raft's driver thread when the
 * leader changes (rare), read by the page's thread; both under this object's lock.
 */
public final class RecentLeaders {
    public static final int KEPT = 20;

    private final Deque<Change> changes = new ArrayDeque<>(KEPT);

    /** Node {@code leaderId} was announced leader of {@code epoch}, learned at {@code atMs} (wall clock). */
    public record Change(long atMs, int epoch, int leaderId) {
    }

    /** Keeps the announcement unless the last one kept is of the same or a later epoch. */
    public synchronized void record(long atMs, int epoch, int leaderId) {
        Change last = changes.peekLast();
        if (last != null && last.epoch() >= epoch) {
            return;
        }
        if (changes.size() == KEPT) {
            changes.pollFirst();
        }
        changes.addLast(new Change(atMs, epoch, leaderId));
    }

    /** The changes kept, oldest first. */
    public synchronized List<Change> changes() {
        return new ArrayList<>(changes);
    }
}
