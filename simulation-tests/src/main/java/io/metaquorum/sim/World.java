package io.metaquorum.sim;

import io.metaquorum.sim.trace.TraceHash;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.sim.cluster.SimCluster;
import io.metaquorum.sim.invariant.InvariantChecker;
import io.metaquorum.sim.network.SimNetwork;
import io.metaquorum.sim.scheduler.EventScheduler;
import io.metaquorum.sim.system.world.SystemWorld;
import io.metaquorum.sim.timeline.TimelineRecorder;
import io.metaquorum.sim.machine.AppendTracker;
import io.metaquorum.sim.workload.ClientWorkload;
import io.metaquorum.sim.workload.FaultInjector;
import io.metaquorum.sim.workload.FaultKind;
import io.metaquorum.sim.workload.FaultProfile;
import io.metaquorum.sim.workload.WorkloadProfile;
import java.util.Random;
import java.util.Set;

/**
 * Everything one run is made of, built by {@link WorldBuilder} from the seed.
 *
 * @param livenessRandom the stream for the liveness phase's choices
 * @param timeline       null unless the run records one
 * @param lifecycle      counts process stops
 * @param timeouts       every node's raft timeouts
 * @param system         the system layer (controllers, brokers, admin clients, their checks), or
 *                       null in raft-only mode
 */
record World(EventScheduler scheduler, TraceHash trace, SimNetwork network, SimCluster cluster, AppendTracker appends,
             InvariantChecker checker, FaultInjector faults, ClientWorkload workload, FaultProfile faultProfile,
             WorkloadProfile workloadProfile, Random livenessRandom, TimelineRecorder timeline,
             LifecycleFanout lifecycle, RaftTimeouts timeouts, SystemWorld system) {
    /** Starts the fault processes: the raft layer's, and in system mode the brokers' disk faults too. */
    void startFaults() {
        faults.start();
        if (system != null) {
            system.startFaults(faultProfile.has(FaultKind.WRITE_ERROR), faultProfile.has(FaultKind.CRASH));
        }
    }

    /** Ends the safety phase: no new faults, everything healed, every node but {@code keepDown} restarted. */
    void heal(Set<Integer> keepDown) {
        faults.heal(keepDown);
        if (system != null) {
            system.heal();
        }
    }

    /** Starts the load: raft clients, or in system mode the admin clients (which wait for the brokers). */
    void startLoad() {
        if (system == null) {
            workload.start();
        }
    }

    /** The liveness phase's proof of progress: load until one write started at or after {@code sinceMs} is acknowledged. */
    void probeSince(long sinceMs) {
        if (system == null) {
            workload.probeSince(sinceMs);
        } else {
            system.admin().probeSince(sinceMs);
        }
    }

    /** When the latest acknowledged write was accepted (raft) or started (system), or -1. */
    long latestProgressMs() {
        return system == null ? appends.latestAckedAcceptMs() : system.admin().latestAckedWriteStartMs();
    }
}
