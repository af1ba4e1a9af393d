package io.metaquorum.sim;

import io.metaquorum.sim.cluster.NodeLifecycleListener;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.cluster.StopReason;

/** Passes node starts and stops on to the fault injector, counting the stops. */
final class LifecycleFanout implements NodeLifecycleListener {
    private NodeLifecycleListener target = new NodeLifecycleListener() {
    };
    private long stops;

    void setTarget(NodeLifecycleListener listener) {
        this.target = listener;
    }

    long stops() {
        return stops;
    }

    @Override
    public void onStarted(SimNode node) {
        target.onStarted(node);
    }

    @Override
    public void onStopped(SimNode node, StopReason reason) {
        stops++;
        target.onStopped(node, reason);
    }
}
