package io.metaquorum.common.fault;

/**
 * Where a fatal fault goes: a broken invariant, corrupt data on disk, a failed sync.
 * The production handler logs one line and halts the process; the simulator's handler
 * marks the node stopped (storage faults) or fails the run (invariant violations).
 */
@FunctionalInterface
public interface FaultHandler {
    void handleFault(String message, Throwable cause);
}
