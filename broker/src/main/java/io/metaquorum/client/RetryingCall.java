package io.metaquorum.client;

import io.metaquorum.client.transport.TransportFailure;
import io.metaquorum.common.time.Time;
import io.metaquorum.protocol.AdminResponseHeader;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.retry.AdminOptions;
import io.metaquorum.retry.CallRetries;
import io.metaquorum.retry.ErrorHandling;
import io.metaquorum.retry.NodeCursor;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One admin call under one overall deadline, acting on handling classes only (docs/architecture.md §8):
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
    private final NodeCursor<HostPort> nodes;
    private final Time time;
    private final Sleeper sleeper;
    private final String what;
    private final long timeoutMs;
    private final AdminOptions options;
    private final Map<String, R> lastRetriable = new LinkedHashMap<>();
    private String lastProblem = "no attempt was made";

    RetryingCall(String what, Spec<I, R, P> spec, NodeCursor<HostPort> nodes, AdminOptions options, Time time,
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
    }

    /** The results in the order of {@code items} (an item given twice gets its key's result twice). */
    List<R> run(List<I> items) {
        Map<String, I> byKey = new LinkedHashMap<>();
        items.forEach(item -> byKey.putIfAbsent(spec.key(item), item));
        CallRetries retries = new CallRetries(new ArrayList<>(byKey.keySet()), options, time.milliseconds(),
                timeoutMs);
        Map<String, R> finals = new LinkedHashMap<>();
        while (!retries.open().isEmpty()) {
            long attemptMs = retries.attemptTimeoutMs(time.milliseconds());
            if (attemptMs <= 0) {
                break;
            }
            retries.onAttempt();
            List<I> pending = retries.open().stream().map(byKey::get).toList();
            attempt(retries, pending, attemptMs, finals);
            if (!retries.open().isEmpty() && !waitBeforeRetry(retries)) {
                break;
            }
        }
        for (String key : retries.open()) {
            finals.computeIfAbsent(key, k -> gaveUp(byKey.get(k), retries.attempts()));
        }
        List<R> results = new ArrayList<>(items.size());
        for (I item : items) {
            results.add(finals.get(spec.key(item)));
        }
        return results;
    }

    /** One attempt: its outcome goes to {@code retries}; results that became final go to {@code finals}. */
    private void attempt(CallRetries retries, List<I> pending, long attemptMs, Map<String, R> finals) {
        HostPort node = nodes.current();
        P response;
        try {
            response = spec.send(node, pending, attemptMs);
        } catch (TransportFailure failure) {
            lastProblem = node + ": " + failure.getMessage();
            failed(retries, failure.handling(), -1, failure.code(), lastProblem);
            return;
        }
        AdminResponseHeader header = spec.header(response);
        if (header.getErrorCode() != ErrorCode.NONE) {
            lastProblem = node + " answered " + ErrorHandling.name(header.getErrorCode(), header.getErrorCodeValue())
                    + ": " + header.getErrorMessage();
            failed(retries, ErrorHandling.of(header.getErrorCode()), header.getControllerId(), header.getErrorCode(),
                    header.getErrorMessage());
            return;
        }
        Map<String, R> results = spec.results(response, pending);
        Map<String, ErrorCode> codes = new LinkedHashMap<>();
        results.forEach((key, result) -> codes.put(key, spec.code(result)));
        retries.onAnswered(codes);
        for (I item : pending) {
            String key = spec.key(item);
            R result = results.get(key);
            if (result == null) {
                finals.put(key, spec.failed(item, ErrorCode.UNKNOWN_SERVER_ERROR,
                        node + " answered without a result for " + key));
            } else if (retries.isFinal(key)) {
                finals.put(key, result);
            } else {
                lastRetriable.put(key, result);
            }
        }
        if (retries.refreshing()) {
            nodes.refresh(header.getControllerId());
        }
    }

    /** The attempt failed as a whole; a final class fails the call. */
    private void failed(CallRetries retries, ErrorClass handling, int controllerId, ErrorCode code, String message) {
        if (!retries.onAttemptFailed(handling)) {
            throw new AdminException(code, message);
        }
        if (retries.refreshing()) {
            nodes.refresh(controllerId);
        }
    }

    /** Waits the backoff; false when the deadline would pass first. */
    private boolean waitBeforeRetry(CallRetries retries) {
        long now = time.milliseconds();
        long retryAtMs = retries.retryAtMs(now);
        if (retryAtMs < 0) {
            return false;
        }
        try {
            sleeper.sleepMs(retryAtMs - now);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException(ErrorCode.REQUEST_TIMED_OUT, what + " was interrupted");
        }
    }

    private R gaveUp(I item, int attempts) {
        String when = " (" + what + " gave up after " + attempts + " attempt" + (attempts == 1 ? "" : "s")
                + " when its " + timeoutMs + " ms deadline passed)";
        R last = lastRetriable.get(spec.key(item));
        if (last != null) {
            return spec.failed(item, spec.code(last), spec.message(last) + when);
        }
        return spec.failed(item, ErrorCode.REQUEST_TIMED_OUT, "no answer: " + lastProblem + when);
    }
}
