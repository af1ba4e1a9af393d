package io.metaquorum.sim.system.workload;

import io.metaquorum.common.invariant.Invariants;
import io.metaquorum.retry.AdminOptions;
import io.metaquorum.retry.CallRetries;
import io.metaquorum.retry.NodeCursor;
import io.metaquorum.protocol.ErrorClass;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.sim.system.admin.AdminInput;
import io.metaquorum.sim.system.admin.AdminOutput;
import io.metaquorum.sim.system.linearizability.History;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One simulated admin client, run by the production client's retry rules ({@link CallRetries})
 * and node choice ({@link NodeCursor}) around simulated messages and timers, as the real
 * {@code AdminClient} runs them around blocking calls. An attempt that gets no answer moves to
 * another node, as a connection the transport reports refused or reset does.
 *
 * <p>Every attempt is recorded in the linearizability {@link History}, one operation per
 * item: a definite code completes it; a retriable code, or no answer, leaves its outcome
 * unknown (the records may have been appended and commit later).
 *
 * <p>Deterministic and event-driven: {@link #poll} hands out the attempt to send, the
 * simulation delivers {@link #onAnswer} or {@link #onNoAnswer}. One call at a time.
 */
public final class SimAdminClient {
    /**
     * An attempt to send: its id (answers name it), the node, the call for the open items, and
     * each item's operation in the history (the simulation seals those whose fate it learns).
     */
    public record Attempt(long id, int nodeId, AdminCall call, Map<String, Integer> historyOps) {
        public Attempt {
            historyOps = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(historyOps));
        }
    }

    /** A finished call: its final codes per item, and when it started and ended. */
    public record Finished(AdminCall call, List<ReferenceModel.FinalItem> items, long startMs, long endMs) {
    }

    private final int clientId;
    private final NodeCursor<Integer> nodes;
    private final AdminOptions options;
    private final long callTimeoutMs;
    private final int defaultPartitions;
    private final History<AdminInput, AdminOutput> history;
    private long nextAttemptId = 1;

    private AdminCall call;
    private CallRetries retries;
    private long startMs;
    private final Map<String, Boolean> ambiguous = new LinkedHashMap<>();
    private long inFlight = -1;
    private long attemptDeadlineMs;
    private Map<String, Integer> inFlightOps = new LinkedHashMap<>();
    private long nextAttemptMs;

    /**
     * @param nodes             the nodes it may send to (its bootstrap list), first one first
     * @param callTimeoutMs     a call's overall deadline
     * @param defaultPartitions {@code num.partitions}, for the history's record of a create with -1
     */
    public SimAdminClient(int clientId, List<Integer> nodes, AdminOptions options, long callTimeoutMs,
                          int defaultPartitions, History<AdminInput, AdminOutput> history) {
        Invariants.check(!nodes.isEmpty(), "a client needs a node to send to");
        Invariants.check(callTimeoutMs > 0, "call timeout must be > 0, got %d", callTimeoutMs);
        this.clientId = clientId;
        Map<Integer, Integer> byId = new TreeMap<>();
        nodes.forEach(id -> byId.put(id, id));
        this.nodes = new NodeCursor<>(nodes, byId);
        this.options = options;
        this.callTimeoutMs = callTimeoutMs;
        this.defaultPartitions = defaultPartitions;
        this.history = history;
    }

    public int clientId() {
        return clientId;
    }

    public boolean idle() {
        return call == null;
    }

    public void start(AdminCall newCall, long nowMs) {
        Invariants.check(call == null, "client %d already has a call", clientId);
        call = newCall;
        startMs = nowMs;
        retries = new CallRetries(newCall.items(), options, nowMs, callTimeoutMs);
        ambiguous.clear();
        newCall.items().forEach(item -> ambiguous.put(item, false));
        nextAttemptMs = nowMs;
    }

    /** The attempt to send now, if one is due; an attempt past its own deadline gets no answer first. */
    public Optional<Attempt> poll(long nowMs) {
        if (call == null) {
            return Optional.empty();
        }
        if (inFlight >= 0) {
            if (nowMs >= attemptDeadlineMs) {
                onNoAnswer(inFlight, nowMs);
            } else {
                return Optional.empty();
            }
        }
        List<String> open = retries.open();
        if (open.isEmpty() || nextAttemptMs == Long.MAX_VALUE || nowMs < nextAttemptMs) {
            return Optional.empty(); // done (takeFinished's turn), given up, or backing off
        }
        long attemptTimeoutMs = retries.attemptTimeoutMs(nowMs);
        if (attemptTimeoutMs <= 0) {
            nextAttemptMs = Long.MAX_VALUE;
            return Optional.empty();
        }
        retries.onAttempt();
        inFlight = nextAttemptId++;
        attemptDeadlineMs = nowMs + attemptTimeoutMs;
        AdminCall attempt = call.withItems(open);
        inFlightOps = new LinkedHashMap<>();
        for (String item : open) {
            inFlightOps.put(item, history.invoke(clientId, HistoryInputs.of(call, item, defaultPartitions), nowMs));
        }
        return Optional.of(new Attempt(inFlight, nodes.current(), attempt, inFlightOps));
    }

    /** When {@link #poll} has something to do next; Long.MAX_VALUE when idle. */
    public long nextDeadlineMs() {
        if (call == null) {
            return Long.MAX_VALUE;
        }
        return inFlight >= 0 ? attemptDeadlineMs : nextAttemptMs;
    }

    /** An answer; one for an attempt no longer awaited (it timed out) is ignored. */
    public void onAnswer(long attemptId, AdminAnswer answer, long nowMs) {
        if (attemptId != inFlight) {
            return;
        }
        inFlight = -1;
        Map<String, ItemResult> byItem = new LinkedHashMap<>();
        answer.items().forEach(result -> byItem.putIfAbsent(result.item(), result));
        Map<String, ErrorCode> codes = new LinkedHashMap<>();
        for (String item : retries.open()) {
            codes.put(item, byItem.getOrDefault(item, missing(item, answer)).code());
        }
        List<String> asked = retries.open();
        List<String> done = retries.onAnswered(codes);
        for (String item : asked) {
            int op = inFlightOps.get(item);
            if (done.contains(item)) {
                history.complete(op, byItem.getOrDefault(item, missing(item, answer)).output(), nowMs);
            } else {
                history.ambiguous(op);
                ambiguous.put(item, true);
            }
        }
        if (!retries.open().isEmpty()) {
            if (retries.refreshing()) {
                nodes.refresh(answer.controllerId());
            }
            scheduleRetry(nowMs);
        }
    }

    /** An item the answer holds no result for: the request-level code, else a server error. */
    private static ItemResult missing(String item, AdminAnswer answer) {
        ErrorCode code = answer.requestCode() != ErrorCode.NONE ? answer.requestCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
        return new ItemResult(item, code, AdminOutput.WriteResult.failed(code));
    }

    /** The attempt got no answer (connection refused or reset, or its deadline passed): find another node. */
    public void onNoAnswer(long attemptId, long nowMs) {
        if (attemptId != inFlight) {
            return;
        }
        inFlight = -1;
        for (String item : retries.open()) {
            history.ambiguous(inFlightOps.get(item));
            ambiguous.put(item, true);
        }
        retries.onAttemptFailed(ErrorClass.REFRESH_AND_RETRY);
        nodes.refresh(-1);
        scheduleRetry(nowMs);
    }

    /** The call that ended, once; empty while it runs. */
    public Optional<Finished> takeFinished(long nowMs) {
        if (call == null || inFlight >= 0 || !(retries.open().isEmpty() || nextAttemptMs == Long.MAX_VALUE)) {
            return Optional.empty();
        }
        List<ReferenceModel.FinalItem> items = new ArrayList<>();
        for (String item : call.items()) {
            items.add(new ReferenceModel.FinalItem(item, retries.endCode(item), retries.isFinal(item),
                    ambiguous.get(item)));
        }
        Finished finished = new Finished(call, items, startMs, nowMs);
        call = null;
        return Optional.of(finished);
    }

    private void scheduleRetry(long nowMs) {
        long retryAtMs = retries.retryAtMs(nowMs);
        nextAttemptMs = retryAtMs < 0 ? Long.MAX_VALUE : retryAtMs;
    }
}
