package io.metaquorum.metadata.controller;

import io.metaquorum.common.invariant.Invariants;
import java.util.TreeMap;

/**
 * When each broker was last heard from (Kafka's {@code BrokerHeartbeatManager}): soft state
 * of the active controller only, not metadata — it is not in the log and a new active
 * controller starts every broker on a fresh session ({@link #resetAll}). Time is an input.
 *
 * <p>Invariant: a session exists for every registered broker the controller has touched;
 * sorted by broker id so expiry is decided in a fixed order.
 */
final class BrokerSessions {
    private final long sessionTimeoutMs;
    private final TreeMap<Integer, Long> lastContactMs = new TreeMap<>();

    BrokerSessions(long sessionTimeoutMs) {
        Invariants.check(sessionTimeoutMs > 0, "broker.session.timeout.ms must be > 0, got %d", sessionTimeoutMs);
        this.sessionTimeoutMs = sessionTimeoutMs;
    }

    void touch(int brokerId, long nowMs) {
        lastContactMs.put(brokerId, nowMs);
    }

    void remove(int brokerId) {
        lastContactMs.remove(brokerId);
    }

    /** True while {@code brokerId} was heard from within the session timeout. */
    boolean alive(int brokerId, long nowMs) {
        Long last = lastContactMs.get(brokerId);
        return last != null && nowMs - last < sessionTimeoutMs;
    }

    /** The broker whose session expired first at {@code nowMs} (lowest id on a tie), or -1 when none has. */
    int firstExpired(long nowMs) {
        int first = -1;
        long firstContactMs = Long.MAX_VALUE;
        for (var session : lastContactMs.entrySet()) {
            long last = session.getValue();
            if (nowMs - last >= sessionTimeoutMs && last < firstContactMs) {
                first = session.getKey();
                firstContactMs = last;
            }
        }
        return first;
    }

    /** The earliest time a session can expire, or Long.MAX_VALUE when there is none. */
    long nextExpiryMs() {
        return lastContactMs.values().stream().mapToLong(last -> last + sessionTimeoutMs).min().orElse(Long.MAX_VALUE);
    }

    void resetAll(Iterable<Integer> brokerIds, long nowMs) {
        lastContactMs.clear();
        brokerIds.forEach(id -> lastContactMs.put(id, nowMs));
    }
}
