package io.metaquorum.sim;

import io.metaquorum.raft.message.RaftMessage;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.network.DeliveryObserver;
import io.metaquorum.sim.scheduler.ScheduledEvent;

/** Sees every event of a run after it ran, and every delivery (for debugging a seed). */
public interface EventObserver extends DeliveryObserver {
    EventObserver NONE = new EventObserver() {
    };

    default void afterEvent(long index, ScheduledEvent event, SimCluster cluster) {
    }

    @Override
    default void onDeliver(int to, RaftMessage message) {
    }
}
