package io.metaquorum.sim.system.linearizability;

import java.util.List;
import java.util.SortedMap;

/**
 * Splits a history into sub-histories that can be checked alone (linearizability is local:
 * Herlihy and Wing 1990, theorem 1, a history is linearizable when the sub-history of each
 * object is). An operation that touches several objects is projected onto each of them, which
 * checks each projection but not that they happened at one instant; a partitioner documents
 * what it gives up that way.
 *
 * <p>Each sub-history's operations must have dense ids 0..n-1 in it ({@link Operation#project}).
 */
public interface Partitioner<I, O> {
    /** The sub-histories by key, each in id order. */
    SortedMap<String, List<Operation<I, O>>> partition(List<Operation<I, O>> history);

    /** Everything in one partition. */
    static <I, O> Partitioner<I, O> whole() {
        return history -> {
            SortedMap<String, List<Operation<I, O>>> one = new java.util.TreeMap<>();
            one.put("all", history);
            return one;
        };
    }
}
