package io.metaquorum.sim.system.workload;

import io.metaquorum.common.invariant.Invariants;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the reference model knows of the brokers when it predicts an answer: the registered
 * ones, and those sure to be unfenced throughout the call (under broker faults, a broker being
 * fenced or unfenced is not sure, and an answer that depends on it may go either way).
 *
 * <p>Invariant: {@code surelyUnfenced} is a subset of {@code registered}.
 */
public record ClusterView(SortedSet<Integer> registered, SortedSet<Integer> surelyUnfenced) {
    public ClusterView {
        Invariants.check(registered.containsAll(surelyUnfenced), "unfenced %s not all registered %s", surelyUnfenced,
                registered);
        registered = Collections.unmodifiableSortedSet(new TreeSet<>(registered));
        surelyUnfenced = Collections.unmodifiableSortedSet(new TreeSet<>(surelyUnfenced));
    }

    /** Every registered broker unfenced, for as long as the call lasts. */
    public static ClusterView stable(SortedSet<Integer> brokers) {
        return new ClusterView(brokers, brokers);
    }
}
