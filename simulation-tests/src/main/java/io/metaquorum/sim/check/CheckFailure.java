package io.metaquorum.sim.check;

/**
 * A violated simulation invariant. Thrown from wherever the violation is seen (a checker
 * after an event, a listener during one); the run stops and reports it with its seed.
 */
public final class CheckFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String invariant;

    public CheckFailure(String invariant, String detail) {
        super(invariant + ": " + detail);
        this.invariant = invariant;
    }

    /** A failure for an unexpected exception: its text and its first stack frames. */
    public static CheckFailure ofException(String invariant, String context, Throwable e) {
        StringBuilder text = new StringBuilder(context).append(e);
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(6, frames.length); i++) {
            text.append("\n        at ").append(frames[i]);
        }
        return new CheckFailure(invariant, text.toString());
    }

    public String invariant() {
        return invariant;
    }
}
