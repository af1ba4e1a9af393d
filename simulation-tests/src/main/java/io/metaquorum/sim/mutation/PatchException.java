package io.metaquorum.sim.mutation;

/**
 * A mutation that cannot be built: its patch is malformed, names a file that does not exist,
 * or no longer matches the production source it changes. The build stops on it, so a planted
 * bug can never silently test code production no longer runs.
 */
public final class PatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PatchException(String mutation, String problem) {
        super("mutation " + mutation + ": " + problem);
    }
}
