package io.metaquorum.sim.cluster;

/** Builds the role a new incarnation of a node runs (system mode); raft-only mode has none. */
@FunctionalInterface
public interface NodeRoles {
    NodeRole create(SimNode node);
}
