package io.metaquorum.sim.cluster;

/** Why a node's process stopped. */
public enum StopReason {
    /** Killed (kill -9, power loss): unsynced writes are lost. */
    CRASH,
    /** Its disk failed a write; the fault handler stopped it. */
    IO_ERROR,
    /** A graceful shutdown completed: everything was synced. */
    SHUTDOWN,
    /** Killed and its disk replaced by an empty one. */
    WIPE
}
