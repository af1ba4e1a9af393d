package io.metaquorum.raft.transport.grpc.logging;

import io.metaquorum.common.time.Time;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Decides which log lines of a repeated kind are written: at most one per key per interval,
 * and the next one written says how many were left out since the previous one. Lines that
 * anyone outside can cause (a connection that sends garbage, a gRPC error per request) go
 * through one of these, so a flood costs a line per interval, not a line per event.
 *
 * <p>A key's window opens when one of its lines is written; lines of that key within
 * {@code intervalMs} of it are counted, not written. The first line after the window is
 * written with the count. A count still pending when the lines stop is never reported.
 *
 * <p>Keys are bounded ({@link #KEYS_MAX}, docs/engineering-rules.md rule 8): when the table is
 * full, keys whose window has passed are forgotten (their pending counts with them), and if
 * it is still full, a new key shares the window of {@link #OVERFLOW_KEY}. Keys in this code
 * come from a fixed set (a reason, a logger and message of gRPC's code), so this only
 * matters if that assumption breaks. Thread-safe (synchronized; lines are rare by design).
 */
public final class LineRateLimiter {
    /** How long one kind of line stays quiet after it was written. */
    public static final long INTERVAL_MS = 10_000;
    static final int KEYS_MAX = 1024;
    static final Object OVERFLOW_KEY = new Object();

    private final Time time;
    private final long intervalMs;
    private final Map<Object, Window> windows = new HashMap<>();

    public LineRateLimiter(Time time, long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("intervalMs must be > 0, got " + intervalMs);
        }
        this.time = time;
        this.intervalMs = intervalMs;
    }

    /**
     * Empty if a line of this key should be left out now (it is counted); otherwise the line
     * is to be written, with what was left out since the previous one.
     */
    public synchronized Optional<Admitted> maybeAdmit(Object key) {
        long nowMs = time.milliseconds();
        Window window = windows.get(key);
        if (window == null) {
            window = newWindow(key, nowMs);
        }
        if (nowMs - window.openedMs < intervalMs && window.written) {
            window.suppressed++;
            return Optional.empty();
        }
        Admitted admitted = new Admitted(window.suppressed, nowMs - window.openedMs);
        window.openedMs = nowMs;
        window.suppressed = 0;
        window.written = true;
        return Optional.of(admitted);
    }

    /** A fresh window for {@code key}, or the overflow key's when the table is full. */
    private Window newWindow(Object key, long nowMs) {
        if (windows.size() >= KEYS_MAX) {
            windows.values().removeIf(w -> nowMs - w.openedMs >= intervalMs);
        }
        if (windows.size() >= KEYS_MAX) {
            return windows.computeIfAbsent(OVERFLOW_KEY, k -> new Window(nowMs));
        }
        Window window = new Window(nowMs);
        windows.put(key, window);
        return window;
    }

    /** Windows currently tracked. */
    synchronized int keys() {
        return windows.size();
    }

    /**
     * A line to write.
     *
     * @param suppressed     lines of the same kind left out since the previous one written
     * @param sincePreviousMs how long ago that previous line was written (0 for the first)
     */
    public record Admitted(long suppressed, long sincePreviousMs) {
        /** What to append to the line: empty, or {@code " (and 57 more like it in the last 10 s)"}. */
        public String suffix() {
            if (suppressed == 0) {
                return "";
            }
            long seconds = Math.max(1, (sincePreviousMs + 999) / 1000);
            return " (and " + suppressed + " more like it in the last " + seconds + " s)";
        }
    }

    /** Invariant: {@code suppressed == 0} unless {@code written}. */
    private static final class Window {
        long openedMs;
        long suppressed;
        boolean written;

        Window(long openedMs) {
            this.openedMs = openedMs;
        }
    }
}
