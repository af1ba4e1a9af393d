package io.metaquorum.common.invariant;

/**
 * Always-on invariant checks (Java {@code assert} is off by default, so it is not used).
 * A failed check throws {@link InvariantViolation}; the driver routes it to the fault
 * handler, which stops the process, and the simulator fails the run with its seed.
 */
public final class Invariants {
    private Invariants() {
    }

    public static void check(boolean condition, String message) {
        if (!condition) {
            throw new InvariantViolation(message);
        }
    }

    public static void check(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new InvariantViolation(String.format(format, args));
        }
    }
}
