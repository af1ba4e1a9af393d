package io.metaquorum.retry;

import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The retry rules of one admin call under one overall deadline, with no I/O (docs/architecture.md §8):
 * the real client runs them around blocking sends and sleeps, the simulated clients around
 * simulated messages and timers. They act on handling classes only: RETRIABLE waits a
 * backoff that doubles with each retriable answer in a row; REFRESH_AND_RETRY (and an attempt
 * that got no answer, as its transport classes it) moves to another node and waits the initial
 * backoff only (no doubling: the controller is moving, and a new one is usually elected within
 * a few hundred ms, so a growing wait would mostly add to the failover); any other class is
 * final. A call's items (topics, config resources) leave it one by one as their results become
 * final; only the open ones are sent again. When the deadline passes, each open item keeps its
 * last retriable code, or REQUEST_TIMED_OUT when it never had one.
 *
 * <p>Invariant: every item key is either open or final, never both; {@code open} keeps the
 * order the keys were given in.
 */
public final class CallRetries {
    private final AdminOptions options;
    private final long deadlineMs;
    private List<String> open;
    private final Map<String, ErrorCode> finals = new LinkedHashMap<>();
    private final Map<String, ErrorCode> lastRetriable = new LinkedHashMap<>();
    private int attempts;
    /** Attempts in a row that failed as RETRIABLE; the backoff doubles with them. */
    private int retriableInRow;
    /** Whether the last attempt asked to find the controller again. */
    private boolean refreshing;

    /** @param keys the call's distinct item keys, in the order results are reported */
    public CallRetries(List<String> keys, AdminOptions options, long nowMs, long timeoutMs) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeoutMs must be > 0, got " + timeoutMs);
        }
        this.options = options;
        this.deadlineMs = nowMs + timeoutMs;
        this.open = new ArrayList<>(keys);
    }

    /** The items still to send, in the call's order. */
    public List<String> open() {
        return List.copyOf(open);
    }

    /** How long the next attempt may wait for its answer; 0 or less once the deadline passed. */
    public long attemptTimeoutMs(long nowMs) {
        return Math.min(deadlineMs - nowMs, options.attemptTimeoutMsMax());
    }

    /** An attempt goes out now. */
    public void onAttempt() {
        attempts++;
    }

    public int attempts() {
        return attempts;
    }

    /**
     * The attempt as a whole failed: no answer (its transport's class), or an answer whose
     * header carries a request-level error of class {@code handling}. False when that class is
     * final: the call fails as a whole.
     */
    public boolean onAttemptFailed(ErrorClass handling) {
        note(handling);
        return handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY;
    }

    /**
     * The attempt was answered item by item ({@code codes} by key; an open item without a code
     * becomes final with UNKNOWN_SERVER_ERROR). Returns the keys that became final.
     */
    public List<String> onAnswered(Map<String, ErrorCode> codes) {
        List<String> again = new ArrayList<>();
        List<String> done = new ArrayList<>();
        boolean refresh = false;
        for (String key : open) {
            ErrorCode code = codes.getOrDefault(key, ErrorCode.UNKNOWN_SERVER_ERROR);
            ErrorClass handling = codes.containsKey(key) ? ErrorHandling.of(code) : ErrorClass.FATAL;
            if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
                refresh |= handling == ErrorClass.REFRESH_AND_RETRY;
                lastRetriable.put(key, code);
                again.add(key);
            } else {
                finals.put(key, code);
                done.add(key);
            }
        }
        open = again;
        if (!again.isEmpty()) {
            note(refresh ? ErrorClass.REFRESH_AND_RETRY : ErrorClass.RETRIABLE);
        }
        return done;
    }

    /** Whether the last outcome asked to move to another node (the controller the answer named). */
    public boolean refreshing() {
        return refreshing;
    }

    /** When the next attempt may go, or -1 when the deadline would pass first: the call gives up. */
    public long retryAtMs(long nowMs) {
        long backoffMs = refreshing ? options.backoffMsInitial() : options.backoffMs(Math.max(1, retriableInRow));
        return nowMs + backoffMs >= deadlineMs ? -1 : nowMs + backoffMs;
    }

    public boolean isFinal(String key) {
        return finals.containsKey(key);
    }

    /** The code an item ends with: its final one, else its last retriable one, else REQUEST_TIMED_OUT. */
    public ErrorCode endCode(String key) {
        ErrorCode code = finals.get(key);
        return code != null ? code : lastRetriable.getOrDefault(key, ErrorCode.REQUEST_TIMED_OUT);
    }

    private void note(ErrorClass handling) {
        refreshing = handling == ErrorClass.REFRESH_AND_RETRY;
        if (handling == ErrorClass.RETRIABLE) {
            retriableInRow++;
        }
    }
}
