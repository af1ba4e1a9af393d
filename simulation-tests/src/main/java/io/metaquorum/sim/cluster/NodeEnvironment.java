package io.metaquorum.sim.cluster;

import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.machine.AppendTracker;

/** What all nodes of a cluster share: the event queue, the network, the append tracker and who hears of starts and stops. */
public record NodeEnvironment(EventScheduler scheduler, SimNetwork network, AppendTracker appends,
                              NodeLifecycleListener lifecycle) {
}
