package io.metaquorum.sim;

import io.metaquorum.sim.timeline.RunHeader;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.check.CheckFailure;
import io.metaquorum.sim.storage.SimDisk;
import io.metaquorum.sim.system.world.SystemStats;
import io.metaquorum.sim.timeline.Timeline;

/**
 * How one run ended.
 *
 * @param failure      the violated invariant, or null if the run passed
 * @param failureEvent the index (1-based) of the event after which it was seen
 * @param timeline     the recorded timeline, or null if not asked for
 * @param system       what the system layer did, or null in raft-only mode
 */
public record SimulationResult(SimulationOptions options, long events, String trace, long simulatedMs,
                               CheckFailure failure, long failureEvent, String phase, String profile,
                               RunStats stats, Timeline timeline,
                               SystemStats system) {
    /** The result of a run of {@code world} that ended, with {@code failure} or without (null). */
    static SimulationResult of(SimulationOptions options, World world, String phase, CheckFailure failure,
                               long failureEvent) {
        var network = world.network().stats();
        long diskFaults = 0;
        for (SimNode node : world.cluster().nodes()) {
            SimDisk disk = node.disk();
            diskFaults += disk.stallCount() + disk.tornBatchCount() + disk.writeErrorCount();
        }
        RunStats stats = new RunStats(network.delivered(), network.lost(), network.unreachable(), network.timedOut(),
                world.appends().acceptedCount(), world.appends().ackedCount(),
                world.checker().committed().committedEndOffset(), world.lifecycle().stops(),
                world.checker().leaderEpochCount(), world.faults().faultsInjected(),
                network.lost() + network.duplicated() + network.delaySpikes(), diskFaults,
                world.faults().badCertificates(), world.faults().voterChanges());
        Timeline timeline = world.timeline() == null ? null
                : world.timeline().finish(options.replayCommand(), world.scheduler().nowMs());
        return new SimulationResult(options, world.scheduler().executedCount(), world.trace().hex(),
                world.scheduler().nowMs(), failure, failureEvent, phase,
                world.faultProfile().describe() + " | " + world.workloadProfile().describe(), stats, timeline,
                world.system() == null ? null : world.system().stats());
    }

    public boolean passed() {
        return failure == null;
    }

    /** A failure message that says everything needed to replay and debug the run. */
    public String describe() {
        if (passed()) {
            return summaryLine() + " passed";
        }
        return summaryLine() + " FAILED at event " + failureEvent + " (" + phase + " phase): "
                + failure.getMessage() + "\n  replay: " + options.replayCommand() + "\n  " + profile;
    }

    /** The line every run prints: {@code seed S events E trace HASH}. */
    public String summaryLine() {
        return "seed " + options.seed() + " events " + events + " trace " + trace;
    }

    /** What the timeline page of this run says of it. */
    public RunHeader timelineHeader() {
        String verdict = passed() ? "passed" : "FAILED at event " + failureEvent() + ": " + failure().getMessage();
        return new RunHeader(options().seed(), summaryLine(), passed(), verdict, profile());
    }
}
