package io.metaquorum.sim.system.linearizability;

import io.metaquorum.common.invariant.Invariants;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Decides whether a history is linearizable against a {@link SequentialModel}: the search of
 * Wing and Gong (1993), with the memoization of Lowe (2017, "Testing for linearizability") as
 * Porcupine uses it. Invocations and answers form one list in real-time order; the search
 * linearizes the first operation whose invocation precedes every open answer, lifts it out of
 * the list, and backtracks when it meets an answer whose operation it could not place. A
 * (set of linearized operations, state) pair already explored is never explored again.
 *
 * <p>Cost is bounded twice: the {@link Partitioner} cuts the history into independent
 * sub-histories (the search is exponential in the concurrency of one sub-history, not in the
 * length of the history), and each sub-history gets at most {@code stepsMax} search steps;
 * past that the verdict is {@link CheckResult.Verdict#UNDECIDED}, never a silent pass.
 *
 * <p>Deterministic: no clock, no randomness; sub-histories are checked in key order.
 */
public final class LinearizabilityChecker<S, I, O> {
    /** Lines a violation report holds at most. */
    static final int REPORT_LINES_MAX = 80;

    private final SequentialModel<S, I, O> model;
    private final Partitioner<I, O> partitioner;
    private final long stepsMax;

    /** A memoized configuration: the operations linearized so far and the state they led to. */
    private record Configuration(BitSet linearized, Object state) {
    }

    /**
     * @param stepsMax search steps one sub-history may take (one step considers one list entry)
     */
    public LinearizabilityChecker(SequentialModel<S, I, O> model, Partitioner<I, O> partitioner, long stepsMax) {
        Invariants.check(stepsMax > 0, "stepsMax must be > 0, got %d", stepsMax);
        this.model = model;
        this.partitioner = partitioner;
        this.stepsMax = stepsMax;
    }

    public CheckResult check(List<Operation<I, O>> history) {
        SortedMap<String, List<Operation<I, O>>> partitions = partitioner.partition(history);
        long steps = 0;
        for (Map.Entry<String, List<Operation<I, O>>> partition : partitions.entrySet()) {
            Search search = new Search(partition.getValue());
            CheckResult.Verdict verdict = search.run();
            steps += search.steps;
            if (verdict != CheckResult.Verdict.LINEARIZABLE) {
                List<String> report = verdict == CheckResult.Verdict.NOT_LINEARIZABLE ? search.report()
                        : List.of("gave up after " + stepsMax + " steps");
                return new CheckResult(verdict, partition.getKey(), report, partitions.size(), steps);
            }
        }
        return new CheckResult(CheckResult.Verdict.LINEARIZABLE, null, List.of(), partitions.size(), steps);
    }

    /**
     * The search over one sub-history. Entries 1..2n are invocations and answers in real-time
     * order in a doubly linked list with sentinels {@code HEAD} (0) and {@code tail} (2n+1);
     * lifting an operation unlinks its two entries, and they are linked back in reverse order
     * (dancing links), so the list is restored exactly on backtrack.
     */
    private final class Search {
        private static final int HEAD = 0;
        private final List<Operation<I, O>> operations;
        private final int tail;
        private final int[] next;
        private final int[] prev;
        private final int[] operationOf;
        private final boolean[] isCall;
        private final int[] answerOf;
        private final LinkedHashSet<Configuration> explored = new LinkedHashSet<>();
        private long steps;
        private List<Integer> longestOrder = List.of();

        Search(List<Operation<I, O>> operations) {
            this.operations = operations;
            int n = operations.size();
            this.tail = 2 * n + 1;
            this.next = new int[tail + 1];
            this.prev = new int[tail + 1];
            this.operationOf = new int[tail + 1];
            this.isCall = new boolean[tail + 1];
            this.answerOf = new int[tail + 1];
            link(sortedEvents());
        }

        /** Invocations and answers by real-time position; unknown answers last, in id order. */
        private List<long[]> sortedEvents() {
            List<long[]> events = new ArrayList<>(2 * operations.size());
            for (int i = 0; i < operations.size(); i++) {
                Operation<I, O> op = operations.get(i);
                Invariants.check(op.id() == i, "operation ids of a sub-history must be dense, found %d at %d", op.id(), i);
                Invariants.check(op.invokeSeq() < op.returnSeq(), "operation %d answered before it was invoked", i);
                events.add(new long[] {op.invokeSeq(), i, 1});
                events.add(new long[] {op.returnSeq(), i, 0});
            }
            events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            return events;
        }

        private void link(List<long[]> events) {
            int[] callEntry = new int[operations.size()];
            int previous = HEAD;
            for (int e = 1; e <= events.size(); e++) {
                long[] event = events.get(e - 1);
                operationOf[e] = (int) event[1];
                isCall[e] = event[2] == 1;
                if (isCall[e]) {
                    callEntry[operationOf[e]] = e;
                } else {
                    answerOf[callEntry[operationOf[e]]] = e;
                }
                next[previous] = e;
                prev[e] = previous;
                previous = e;
            }
            next[previous] = tail;
            prev[tail] = previous;
        }

        CheckResult.Verdict run() {
            int[] stackEntry = new int[operations.size()];
            List<S> stackState = new ArrayList<>();
            int depth = 0;
            S state = model.initialState();
            BitSet linearized = new BitSet(operations.size());
            int entry = next[HEAD];
            while (next[HEAD] != tail) {
                if (++steps > stepsMax) {
                    return CheckResult.Verdict.UNDECIDED;
                }
                Invariants.check(entry != tail, "the search walked past every open answer");
                int op = operationOf[entry];
                if (isCall[entry]) {
                    S after = model.step(state, operations.get(op).input(), operations.get(op).output());
                    if (after != null) {
                        BitSet with = (BitSet) linearized.clone();
                        with.set(op);
                        if (explored.add(new Configuration(with, after))) {
                            stackEntry[depth] = entry;
                            stackState.add(state);
                            depth++;
                            noteDepth(stackEntry, depth);
                            state = after;
                            linearized = with;
                            lift(entry);
                            entry = next[HEAD];
                            continue;
                        }
                    }
                    entry = next[entry];
                } else {
                    if (depth == 0) {
                        return CheckResult.Verdict.NOT_LINEARIZABLE;
                    }
                    depth--;
                    entry = stackEntry[depth];
                    state = stackState.remove(depth);
                    linearized = (BitSet) linearized.clone();
                    linearized.clear(operationOf[entry]);
                    unlift(entry);
                    entry = next[entry];
                }
            }
            return CheckResult.Verdict.LINEARIZABLE;
        }

        private void lift(int call) {
            unlink(call);
            unlink(answerOf[call]);
        }

        private void unlift(int call) {
            relink(answerOf[call]);
            relink(call);
        }

        private void unlink(int e) {
            next[prev[e]] = next[e];
            prev[next[e]] = prev[e];
        }

        private void relink(int e) {
            next[prev[e]] = e;
            prev[next[e]] = e;
        }

        private void noteDepth(int[] stackEntry, int depth) {
            if (depth > longestOrder.size()) {
                List<Integer> order = new ArrayList<>(depth);
                for (int i = 0; i < depth; i++) {
                    order.add(operationOf[stackEntry[i]]);
                }
                longestOrder = order;
            }
        }

        List<String> report() {
            List<String> lines = new ArrayList<>();
            lines.add(operations.size() + " operations (client, invoked at ms .. answered at ms):");
            for (Operation<I, O> op : operations) {
                if (lines.size() >= REPORT_LINES_MAX / 2) {
                    lines.add("...");
                    break;
                }
                lines.add("#" + op.id() + " client " + op.clientId() + " [" + op.invokeMs() + " .. "
                        + (op.outcomeKnown() ? op.returnMs() : "?") + "] " + model.describe(op.input(), op.output()));
            }
            lines.add("longest order that explains a prefix (" + longestOrder.size() + " operations): "
                    + longestOrder.stream().limit(REPORT_LINES_MAX).map(id -> "#" + id).toList());
            return lines;
        }
    }
}
