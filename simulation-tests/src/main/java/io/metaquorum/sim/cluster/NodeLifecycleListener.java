package io.metaquorum.sim.cluster;

/** Hears when node processes start and stop. */
public interface NodeLifecycleListener {
    default void onStarted(SimNode node) {
    }

    default void onStopped(SimNode node, StopReason reason) {
    }
}
