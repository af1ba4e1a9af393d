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

    /** The process ended (any reason): answers still owed must never be sent. */
    void stopped();
}
