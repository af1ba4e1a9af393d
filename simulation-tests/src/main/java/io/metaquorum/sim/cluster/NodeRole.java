package io.metaquorum.sim.cluster;

import io.metaquorum.raft.RaftListener;
import io.metaquorum.sim.system.node.RaftPort;

/**
 * What a node runs beside its checked state machine in system mode: a controller or a broker.
 * One object per process incarnation; the process calls it on its one simulated thread.
 */
public interface NodeRole {
    /** The role's own raft listener: it hears every callback after the checked state machine. */
    RaftListener listener();

    /**
     * The role's own work after a core call (never inside a core callback): appends and
     * resignations through {@code raft}; returns when it next needs to run, in local ms
     * ({@code Long.MAX_VALUE} for never).
     */
    long drive(RaftPort raft, long nowMs);

    /**
     * A graceful stop begins (SIGTERM, as {@code NodeServer#shutdown} handles it): a broker starts
     * its controlled shutdown; raft's shutdown waits until {@link #readyToStop} or the timeout.
     */
    default void beginShutdown(long nowMs) {
    }

    /** Whether the role's part of a graceful stop is done (a controller has none: at once). */
    default boolean readyToStop(long nowMs) {
        return true;
    }

    /** The process ended (any reason): answers still owed must never be sent. */
    void stopped();
}
