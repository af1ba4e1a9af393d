package io.metaquorum.common.invariant;

/** A broken invariant: a bug, never an operating condition. The node must stop. */
public final class InvariantViolation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvariantViolation(String message) {
        super(message);
    }
}
