package io.metaquorum.client;

import io.metaquorum.common.time.Time;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.server.HostPort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One admin call under one overall deadline, acting on handling classes only (DESIGN.md §8):
 * RETRIABLE waits with a doubling backoff and retries; REFRESH_AND_RETRY (and a transport
 * failure the adapter classed so) moves to another node, waits the initial backoff only (no
 * doubling: the controller is moving, and a new one is usually elected within a few hundred
 * ms, so a growing wait would mostly add to the failover) and retries; any other class is
 * final.
 * A batch keeps a result per item: items with a final result leave the batch, and only the
 * items still retriable are sent again. When the deadline passes, each item still pending
 * gets its last retriable error, or REQUEST_TIMED_OUT naming the last problem when it never
 * had one.
 *
 * @param <I> an item of the request (a topic, a config resource)
 * @param <R> the result of one item
 * @param <P> the response of one attempt
 */
final class RetryingCall<I, R, P> {
    /** What one kind of call sends and how its answer splits into results. */
    interface Spec<I, R, P> {
        P send(HostPort node, List<I> items, long attemptTimeoutMs);

        AdminResponseHeader header(P response);

        /** The results of {@code response}, by item key. */
        Map<String, R> results(P response, List<I> sent);

        String key(I item);

        ErrorCode code(R result);

        String message(R result);

        /** The result of an item the call gave up on (or got no result for). */
        R failed(I item, ErrorCode code, String message);
    }

    private final Spec<I, R, P> spec;
    private final NodeCursor nodes;
    private final AdminOptions options;
    private final Time time;
    private final Sleeper sleeper;
    private final String what;
    private final long timeoutMs;
    private final long deadlineMs;
    private final Map<String, R> lastRetriable = new LinkedHashMap<>();
    private String lastProblem = "no attempt was made";
    private int attempts;
    /** Attempts in a row that failed as RETRIABLE; the backoff doubles with them. */
    private int retriableInRow;
    /** Whether the last attempt asked to find the controller again. */
    private boolean refreshing;

    RetryingCall(String what, Spec<I, R, P> spec, NodeCursor nodes, AdminOptions options, Time time,
            Sleeper sleeper, long timeoutMs) {
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("timeoutMs must be > 0, got " + timeoutMs);
        }
        this.what = what;
        this.spec = spec;
        this.nodes = nodes;
        this.options = options;
        this.time = time;
        this.sleeper = sleeper;
        this.timeoutMs = timeoutMs;
        this.deadlineMs = time.milliseconds() + timeoutMs;
    }

    /** The results in the order of {@code items} (an item given twice gets its key's result twice). */
    List<R> run(List<I> items) {
        Map<String, R> finals = new LinkedHashMap<>();
        List<I> pending = new ArrayList<>(items);
        while (!pending.isEmpty()) {
            long attemptMs = Math.min(deadlineMs - time.milliseconds(), options.attemptTimeoutMsMax());
            if (attemptMs <= 0) {
                break;
            }
            attempts++;
            pending = attempt(pending, attemptMs, finals);
            if (!pending.isEmpty() && !waitBeforeRetry()) {
                break;
            }
        }
        for (I item : pending) {
            finals.computeIfAbsent(spec.key(item), key -> gaveUp(item));
        }
        List<R> results = new ArrayList<>(items.size());
        for (I item : items) {
            results.add(finals.get(spec.key(item)));
        }
        return results;
    }

    /** One attempt; returns the items to send again. */
    private List<I> attempt(List<I> pending, long attemptMs, Map<String, R> finals) {
        HostPort node = nodes.current();
        P response;
        try {
            response = spec.send(node, pending, attemptMs);
        } catch (TransportFailure failure) {
            lastProblem = node + ": " + failure.getMessage();
            noteHandling(failure.handling());
            actOn(failure.handling(), -1, failure.code(), lastProblem);
            return pending;
        }
        AdminResponseHeader header = spec.header(response);
        if (header.getErrorCode() != ErrorCode.NONE) {
            lastProblem = node + " answered " + ErrorHandling.name(header.getErrorCode(), header.getErrorCodeValue())
                    + ": " + header.getErrorMessage();
            noteHandling(ErrorHandling.of(header.getErrorCode()));
            actOn(ErrorHandling.of(header.getErrorCode()), header.getControllerId(), header.getErrorCode(),
                    header.getErrorMessage());
            return pending;
        }
        Map<String, R> results = spec.results(response, pending);
        List<I> again = new ArrayList<>();
        boolean refresh = false;
        for (I item : pending) {
            String key = spec.key(item);
            R result = results.get(key);
            if (result == null) {
                finals.put(key, spec.failed(item, ErrorCode.UNKNOWN_SERVER_ERROR,
                        node + " answered without a result for " + key));
                continue;
            }
            ErrorClass handling = ErrorHandling.of(spec.code(result));
            if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
                refresh |= handling == ErrorClass.REFRESH_AND_RETRY;
                lastRetriable.put(key, result);
                again.add(item);
            } else {
                finals.put(key, result);
            }
        }
        if (refresh) {
            nodes.refresh(header.getControllerId());
        }
        if (!again.isEmpty()) {
            noteHandling(refresh ? ErrorClass.REFRESH_AND_RETRY : ErrorClass.RETRIABLE);
        }
        return again;
    }

    private void noteHandling(ErrorClass handling) {
        refreshing = handling == ErrorClass.REFRESH_AND_RETRY;
        if (handling == ErrorClass.RETRIABLE) {
            retriableInRow++;
        }
    }

    private void actOn(ErrorClass handling, int controllerId, ErrorCode code, String message) {
        switch (handling) {
            case RETRIABLE -> {
            }
            case REFRESH_AND_RETRY -> nodes.refresh(controllerId);
            default -> throw new AdminException(code, message);
        }
    }

    /** Waits the backoff; false when the deadline would pass first. */
    private boolean waitBeforeRetry() {
        long backoffMs = refreshing ? options.backoffMsInitial() : options.backoffMs(Math.max(1, retriableInRow));
        if (time.milliseconds() + backoffMs >= deadlineMs) {
            return false;
        }
        try {
            sleeper.sleepMs(backoffMs);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException(ErrorCode.REQUEST_TIMED_OUT, what + " was interrupted");
        }
    }

    private R gaveUp(I item) {
        String when = " (" + what + " gave up after " + attempts + " attempt" + (attempts == 1 ? "" : "s")
                + " when its " + timeoutMs + " ms deadline passed)";
        R last = lastRetriable.get(spec.key(item));
        if (last != null) {
            return spec.failed(item, spec.code(last), spec.message(last) + when);
        }
        return spec.failed(item, ErrorCode.REQUEST_TIMED_OUT, "no answer: " + lastProblem + when);
    }
}
