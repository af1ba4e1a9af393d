package io.metaquorum.sim.system.fs;

/**
 * The simulated machine lost power in the middle of a file-system operation. Not an
 * {@link java.io.IOException}: the process is gone, so nothing above may handle it; the
 * simulation catches it where the node's event ends and restarts the node.
 */
public final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimulatedCrash(String message) {
        super(message);
    }
}
