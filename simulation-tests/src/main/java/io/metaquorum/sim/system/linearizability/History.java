package io.metaquorum.sim.system.linearizability;

import io.metaquorum.common.invariant.Invariants;
import java.util.ArrayList;
import java.util.List;

/**
 * Records invocations and answers as a simulation makes them, in the order they happen; that
 * order is the real-time order the checker respects. An operation left open at the end, or
 * marked {@link #ambiguous}, has an unknown outcome.
 *
 * <p>One recorded operation is one request as the server saw it: a client that retries records
 * each attempt, because each attempt may take effect on its own (a create retried after a lost
 * answer may find its own topic).
 *
 * <p>Invariant: each operation is answered at most once.
 */
public final class History<I, O> {
    /** Operations one history may hold: bounds the checker's memory and the recorder's. */
    public static final int OPERATIONS_MAX = 1_000_000;

    private final List<I> inputs = new ArrayList<>();
    private final List<O> outputs = new ArrayList<>();
    private final List<long[]> times = new ArrayList<>();
    private final List<Integer> clients = new ArrayList<>();
    private final List<Boolean> answered = new ArrayList<>();
    private long nextSeq;

    /** Records an invocation; returns its id for {@link #complete} or {@link #ambiguous}. */
    public int invoke(int clientId, I input, long nowMs) {
        Invariants.check(inputs.size() < OPERATIONS_MAX, "a history holds at most %d operations", OPERATIONS_MAX);
        inputs.add(input);
        outputs.add(null);
        times.add(new long[] {nextSeq++, Long.MAX_VALUE, nowMs, -1});
        clients.add(clientId);
        answered.add(false);
        return inputs.size() - 1;
    }

    /** Records a definite answer. */
    public void complete(int id, O output, long nowMs) {
        Invariants.check(output != null, "operation %d: a definite answer is not null", id);
        close(id);
        outputs.set(id, output);
        long[] time = times.get(id);
        time[1] = nextSeq++;
        time[3] = nowMs;
    }

    /** Records that the answer will never be known (timed out, connection lost, failed ambiguously). */
    public void ambiguous(int id) {
        close(id);
    }

    /**
     * Records that operation {@code id}, answered {@link #ambiguous}, can no longer take effect
     * from now on (the simulation saw its records commit or be truncated under a later
     * epoch): it took effect before now, or never. Bounds the checker's search.
     */
    public void seal(int id, long nowMs) {
        Invariants.check(id >= 0 && id < inputs.size() && answered.get(id) && outputs.get(id) == null,
                "operation %d is not an ambiguous one", id);
        long[] time = times.get(id);
        Invariants.check(time[1] == Long.MAX_VALUE, "operation %d sealed twice", id);
        time[1] = nextSeq++;
        time[3] = nowMs;
    }

    /** True when operation {@code id} got a definite answer. */
    public boolean answeredDefinitely(int id) {
        return outputs.get(id) != null;
    }

    /** True when operation {@code id} was answered {@link #ambiguous} and is not sealed yet. */
    public boolean awaitsSeal(int id) {
        return answered.get(id) && outputs.get(id) == null && times.get(id)[1] == Long.MAX_VALUE;
    }

    private void close(int id) {
        Invariants.check(id >= 0 && id < inputs.size(), "no operation %d", id);
        Invariants.check(!answered.get(id), "operation %d answered twice", id);
        answered.set(id, true);
    }

    public int size() {
        return inputs.size();
    }

    /** Operation {@code id} as recorded so far. */
    public Operation<I, O> operation(int id) {
        long[] time = times.get(id);
        return new Operation<>(id, clients.get(id), inputs.get(id), outputs.get(id), time[0], time[1], time[2],
                time[3]);
    }

    /** The operations recorded so far, by id. */
    public List<Operation<I, O>> operations() {
        List<Operation<I, O>> operations = new ArrayList<>(inputs.size());
        for (int id = 0; id < inputs.size(); id++) {
            long[] time = times.get(id);
            operations.add(new Operation<>(id, clients.get(id), inputs.get(id), outputs.get(id), time[0], time[1],
                    time[2], time[3]));
        }
        return operations;
    }
}
