package io.metaquorum.sim.system.linearizability;

/**
 * A sequential specification the {@link LinearizabilityChecker} judges a history against:
 * what each operation does to a state, and which outputs it may give from that state.
 *
 * <p>Contract: {@link #step} is a pure function; states are immutable values with
 * {@code equals} and {@code hashCode} by value (the checker memoizes on them). An unknown
 * output (null: the operation timed out or failed ambiguously) must be accepted from every
 * state, since such an operation may be linearized at any point after its invocation,
 * including after everything else, which is how "it never took effect" is expressed.
 *
 * @param <S> the state
 * @param <I> an operation's input
 * @param <O> an operation's output
 */
public interface SequentialModel<S, I, O> {
    /** The state before any operation. */
    S initialState();

    /**
     * The state after {@code input} was applied to {@code state} and answered {@code output}
     * (null: unknown), or null when {@code output} cannot be the answer from {@code state}.
     */
    S step(S state, I input, O output);

    /** One line describing an operation, for failure reports. */
    default String describe(I input, O output) {
        return input + " -> " + (output == null ? "?" : output);
    }
}
