package io.metaquorum.sim.check;

import io.metaquorum.common.invariant.InvariantViolation;

/**
 * What a node's code threw, as the run's failure: a failed check of the core's own
 * ({@code core-invariant}: an {@link InvariantViolation}) or anything else it did not expect
 * ({@value #EXCEPTION}). Storage errors are not failures (the node stops, as a real one does)
 * and are handled before this, and so is a simulation check that fired inside the node's
 * running code (it stays what it was).
 */
public final class CoreFailures {
    public static final String INVARIANT = "core-invariant";
    public static final String EXCEPTION = "core-exception";

    private CoreFailures() {
    }

    /** {@code e}, thrown by {@code who} ("node 3", "node 3 at start"), as the failure of the run. */
    public static CheckFailure of(String who, RuntimeException e) {
        if (e instanceof InvariantViolation) {
            return new CheckFailure(INVARIANT, who + ": " + e.getMessage());
        }
        return CheckFailure.ofException(EXCEPTION, who + " threw ", e);
    }
}
