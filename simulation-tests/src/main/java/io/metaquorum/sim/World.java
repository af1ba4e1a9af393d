package io.metaquorum.sim;

import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.invariant.InvariantChecker;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.timeline.TimelineRecorder;
import io.metaquorum.sim.workload.AppendTracker;
import io.metaquorum.sim.workload.ClientWorkload;
import io.metaquorum.sim.workload.FaultInjector;
import io.metaquorum.sim.workload.FaultProfile;
import io.metaquorum.sim.workload.WorkloadProfile;
import java.util.Random;

/**
 * Everything one run is made of, built by {@link WorldBuilder} from the seed.
 *
 * @param livenessRandom the stream for the liveness phase's choices
 * @param timeline       null unless the run records one
 * @param lifecycle      counts process stops
 * @param timeouts       every node's raft timeouts
 */
record World(EventScheduler scheduler, TraceHash trace, SimNetwork network, SimCluster cluster, AppendTracker appends,
             InvariantChecker checker, FaultInjector faults, ClientWorkload workload, FaultProfile faultProfile,
             WorkloadProfile workloadProfile, Random livenessRandom, TimelineRecorder timeline,
             LifecycleFanout lifecycle, RaftTimeouts timeouts) {
}
