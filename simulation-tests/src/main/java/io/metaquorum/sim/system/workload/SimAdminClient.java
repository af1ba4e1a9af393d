package io.metaquorum.sim.system.workload;

import io.metaquorum.client.AdminOptions;
import io.metaquorum.client.ErrorHandling;
import io.metaquorum.common.invariant.Invariants;
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

/**
 * One simulated admin client, deciding as the production {@code AdminClient} does: by the
 * handling class of each code ({@link ErrorHandling}) and nothing else. RETRIABLE retries the
 * same node after a doubling backoff; REFRESH_AND_RETRY (and an attempt that got no answer)
 * moves to the controller the answer named, or to the next node, after the initial backoff;
 * every other class is final. Items with a final result leave the call; only the rest are
 * sent again. The call gives up at its deadline: each item still open ends with its last
 * retriable code, or REQUEST_TIMED_OUT.
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
    private final List<Integer> nodes;
    private final AdminOptions options;
    private final long callTimeoutMs;
    private final int defaultPartitions;
    private final History<AdminInput, AdminOutput> history;
    private int nodeIndex;
    private int currentNode;
    private long nextAttemptId = 1;

    private AdminCall call;
    private long startMs;
    private long deadlineMs;
    private List<String> open = new ArrayList<>();
    private final Map<String, ErrorCode> finals = new LinkedHashMap<>();
    private final Map<String, ErrorCode> lastRetriable = new LinkedHashMap<>();
    private final Map<String, Boolean> ambiguous = new LinkedHashMap<>();
    private long inFlight = -1;
    private long attemptDeadlineMs;
    private Map<String, Integer> inFlightOps = new LinkedHashMap<>();
    private long nextAttemptMs;
    private int retriableInRow;

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
        this.nodes = List.copyOf(nodes);
        this.options = options;
        this.callTimeoutMs = callTimeoutMs;
        this.defaultPartitions = defaultPartitions;
        this.history = history;
        this.currentNode = nodes.get(0);
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
        deadlineMs = nowMs + callTimeoutMs;
        open = new ArrayList<>(newCall.items());
        finals.clear();
        lastRetriable.clear();
        ambiguous.clear();
        open.forEach(item -> ambiguous.put(item, false));
        retriableInRow = 0;
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
        if (call == null || open.isEmpty() || nowMs < nextAttemptMs) {
            return Optional.empty(); // idle, done (every item final: takeFinished's turn), or backing off
        }
        inFlight = nextAttemptId++;
        attemptDeadlineMs = Math.min(deadlineMs, nowMs + options.attemptTimeoutMsMax());
        AdminCall attempt = call.withItems(open);
        inFlightOps = new LinkedHashMap<>();
        for (String item : open) {
            inFlightOps.put(item, history.invoke(clientId, HistoryInputs.of(call, item, defaultPartitions), nowMs));
        }
        return Optional.of(new Attempt(inFlight, currentNode, attempt, inFlightOps));
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
        List<String> again = new ArrayList<>();
        boolean refresh = false;
        for (String item : open) {
            ItemResult result = byItem.getOrDefault(item, missing(item, answer));
            ErrorCode code = result.code();
            ErrorClass handling = ErrorHandling.of(code);
            int op = inFlightOps.get(item);
            if (handling == ErrorClass.RETRIABLE || handling == ErrorClass.REFRESH_AND_RETRY) {
                history.ambiguous(op);
                ambiguous.put(item, true);
                lastRetriable.put(item, code);
                refresh |= handling == ErrorClass.REFRESH_AND_RETRY;
                again.add(item);
            } else {
                history.complete(op, result.output(), nowMs);
                finals.put(item, code);
            }
        }
        open = again;
        if (open.isEmpty()) {
            return;
        }
        if (refresh) {
            moveTo(answer.controllerId());
        } else {
            retriableInRow++;
        }
        scheduleRetry(refresh ? options.backoffMsInitial() : backoffMs(retriableInRow), nowMs);
    }

    /** An item the answer holds no result for: the request-level code, else a server error. */
    private static ItemResult missing(String item, AdminAnswer answer) {
        ErrorCode code = answer.requestCode() != ErrorCode.NONE ? answer.requestCode() : ErrorCode.UNKNOWN_SERVER_ERROR;
        return new ItemResult(item, code, AdminOutput.WriteResult.failed(code));
    }

    /** The attempt got no answer (connection refused or reset, or its deadline passed). */
    public void onNoAnswer(long attemptId, long nowMs) {
        if (attemptId != inFlight) {
            return;
        }
        inFlight = -1;
        for (String item : open) {
            history.ambiguous(inFlightOps.get(item));
            ambiguous.put(item, true);
        }
        moveTo(-1);
        scheduleRetry(options.backoffMsInitial(), nowMs);
    }

    /** The call that ended, once; empty while it runs. */
    public Optional<Finished> takeFinished(long nowMs) {
        if (call == null || inFlight >= 0 || !(open.isEmpty() || nextAttemptMs == Long.MAX_VALUE)) {
            return Optional.empty();
        }
        List<ReferenceModel.FinalItem> items = new ArrayList<>();
        for (String item : call.items()) {
            ErrorCode code = finals.containsKey(item) ? finals.get(item)
                    : lastRetriable.getOrDefault(item, ErrorCode.REQUEST_TIMED_OUT);
            items.add(new ReferenceModel.FinalItem(item, code, finals.containsKey(item), ambiguous.get(item)));
        }
        Finished finished = new Finished(call, items, startMs, nowMs);
        call = null;
        return Optional.of(finished);
    }

    private void scheduleRetry(long backoffMs, long nowMs) {
        nextAttemptMs = nowMs + backoffMs >= deadlineMs ? Long.MAX_VALUE : nowMs + backoffMs;
    }

    private void moveTo(int controllerId) {
        if (controllerId >= 0 && controllerId != currentNode && nodes.contains(controllerId)) {
            currentNode = controllerId;
            return;
        }
        nodeIndex = (nodeIndex + 1) % nodes.size();
        currentNode = nodes.get(nodeIndex);
    }

    private long backoffMs(int retry) {
        long backoff = options.backoffMsInitial();
        for (int i = 1; i < retry && backoff < options.backoffMsMax(); i++) {
            backoff *= 2;
        }
        return Math.min(backoff, options.backoffMsMax());
    }
}
