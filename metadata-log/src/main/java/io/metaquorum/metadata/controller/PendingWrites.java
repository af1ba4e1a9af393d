package io.metaquorum.metadata.controller;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Responses waiting for their records (Kafka's {@code DeferredEventQueue}): each completes
 * once raft accepted the append (for a request that asked not to wait) or once the high
 * watermark passed its last offset, fails with REQUEST_TIMED_OUT at its deadline, and
 * fails with NOT_CONTROLLER when the leadership it was appended in ends.
 *
 * <p>Invariant: every entry completes exactly once; entries are kept by last offset, so they
 * complete in log order.
 */
final class PendingWrites {
    private record Pending(boolean awaitCommit, long deadlineMs, Runnable onSuccess, Consumer<ApiError> onFailure) {
    }

    private final TreeMap<Long, List<Pending>> byLastOffset = new TreeMap<>();

    /** A response to give once {@code lastOffset} is accepted ({@code awaitCommit} false) or committed. */
    void add(long lastOffset, boolean awaitCommit, long deadlineMs, Runnable onSuccess, Consumer<ApiError> onFailure) {
        byLastOffset.computeIfAbsent(lastOffset, k -> new ArrayList<>())
                .add(new Pending(awaitCommit, deadlineMs, onSuccess, onFailure));
    }

    /** Raft queued the append ending at {@code lastOffset}. */
    void accepted(long lastOffset) {
        List<Pending> entries = byLastOffset.get(lastOffset);
        if (entries == null) {
            return;
        }
        List<Pending> done = new ArrayList<>();
        entries.removeIf(p -> !p.awaitCommit() && done.add(p));
        if (entries.isEmpty()) {
            byLastOffset.remove(lastOffset);
        }
        done.forEach(p -> p.onSuccess().run());
    }

    /** Everything up to and including {@code offset} is committed. */
    void committedUpTo(long offset) {
        List<Pending> done = new ArrayList<>();
        Iterator<Map.Entry<Long, List<Pending>>> it = byLastOffset.headMap(offset, true).entrySet().iterator();
        while (it.hasNext()) {
            done.addAll(it.next().getValue());
            it.remove();
        }
        done.forEach(p -> p.onSuccess().run());
    }

    /** Fails the entries whose deadline has passed. */
    void expire(long nowMs) {
        List<Pending> expired = new ArrayList<>();
        Iterator<Map.Entry<Long, List<Pending>>> it = byLastOffset.entrySet().iterator();
        while (it.hasNext()) {
            List<Pending> entries = it.next().getValue();
            entries.removeIf(p -> p.deadlineMs() <= nowMs && expired.add(p));
            if (entries.isEmpty()) {
                it.remove();
            }
        }
        ApiError timedOut = ApiError.of(io.metaquorum.protocol.ErrorCode.REQUEST_TIMED_OUT,
                "The records were appended but not committed in time; the change may still be applied.");
        expired.forEach(p -> p.onFailure().accept(timedOut));
    }

    void failAll(ApiError error) {
        List<Pending> all = new ArrayList<>();
        byLastOffset.values().forEach(all::addAll);
        byLastOffset.clear();
        all.forEach(p -> p.onFailure().accept(error));
    }

    long nextDeadlineMs() {
        long next = Long.MAX_VALUE;
        for (List<Pending> entries : byLastOffset.values()) {
            for (Pending p : entries) {
                next = Math.min(next, p.deadlineMs());
            }
        }
        return next;
    }

    int size() {
        return byLastOffset.values().stream().mapToInt(List::size).sum();
    }
}
