package io.metaquorum.sim.cli;

import io.metaquorum.sim.EventObserver;
import io.metaquorum.sim.RunStats;
import io.metaquorum.sim.Simulation;
import io.metaquorum.sim.SimulationOptions;
import io.metaquorum.sim.SimulationResult;
import io.metaquorum.sim.system.world.SystemStats;
import io.metaquorum.sim.timeline.TimelineHtml;
import io.metaquorum.sim.workload.KeyValueModel;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code mq-simulate}: runs seeds, prints one line per run and every failure with the
 * command that replays it, a throughput line, and last {@code N passed, N failed}. The wall
 * clock is read here only, to report simulated events per second; it never reaches a run.
 * Exit status: 0 all passed, 1 some failed, 2 bad arguments.
 */
public final class SimulateCommand {
    private static final long PROGRESS_INTERVAL_NANOS = 5_000_000_000L;

    private final PrintStream out;
    private final PrintStream err;

    SimulateCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(new SimulateCommand(System.out, System.err).execute(args));
    }

    int execute(String[] args) {
        SimulateArguments arguments;
        try {
            arguments = SimulateArguments.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mq-simulate: " + e.getMessage());
            return 2;
        }
        if (arguments.help()) {
            out.println(SimulateArguments.USAGE);
            return 0;
        }
        if (BrokenRuleRuns.needsMutant(arguments.template().variant())) {
            return BrokenRuleRuns.simulateInMutant(arguments.template().variant(), args, out, err);
        }
        return runAll(arguments);
    }

    private int runAll(SimulateArguments arguments) {
        long passed = 0;
        long failed = 0;
        long events = 0;
        long simulatedMs = 0;
        SystemTotals system = new SystemTotals();
        SimulationOptions timelineRun = null;
        long startNanos = System.nanoTime();
        long lastProgressNanos = startNanos;
        for (long i = 0; i < arguments.seedCount(); i++) {
            SimulationOptions options = arguments.template().withSeed(arguments.firstSeed() + i);
            EventObserver observer = arguments.debugEvents() == null ? EventObserver.NONE
                    : DebugTrace.parse(out, arguments.debugEvents());
            SimulationResult result = Simulation.run(options, new KeyValueModel(64), observer);
            events += result.events();
            simulatedMs += result.simulatedMs();
            system.add(result);
            out.println(result.summaryLine());
            if (arguments.verbose()) {
                printDetails(result);
            }
            if (result.passed()) {
                passed++;
            } else {
                failed++;
                printFailure(result);
            }
            if (timelineRun == null || (!result.passed() && failed == 1)) {
                timelineRun = options; // the first run, replaced by the first failing one
            }
            long now = System.nanoTime();
            if (now - lastProgressNanos >= PROGRESS_INTERVAL_NANOS && i + 1 < arguments.seedCount()) {
                lastProgressNanos = now;
                err.printf("progress: %d/%d seeds, %d failed, %.0f events/s%n", i + 1, arguments.seedCount(), failed,
                        events / ((now - startNanos) / 1e9));
            }
        }
        double wallSeconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        out.printf("simulated %d events and %.1f s in %.2f s of wall time: %.0f events/s, %.1f simulated s per wall s%n",
                events, simulatedMs / 1000.0, wallSeconds, events / wallSeconds, simulatedMs / 1000.0 / wallSeconds);
        if (arguments.template().system()) {
            out.println(system.describe());
        }
        if (arguments.timelineFile() != null && !writeTimeline(timelineRun, arguments.timelineFile())) {
            failed++;
        }
        out.println(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private void printFailure(SimulationResult result) {
        out.println("FAILED seed " + result.options().seed() + " at event " + result.failureEvent() + " ("
                + result.phase() + " phase, simulated " + result.simulatedMs() + " ms): " + result.failure().getMessage());
        out.println("  replay: " + result.options().replayCommand());
    }

    private void printDetails(SimulationResult result) {
        RunStats s = result.stats();
        out.println("  " + result.profile());
        out.printf("  simulated %d ms; %d messages delivered, %d lost, %d unreachable, %d timed out;"
                        + " %d appends accepted, %d acknowledged; %d offsets committed; %d stops; %d leader epochs;"
                        + " faults fired: %d discrete, %d per message, %d per disk; %d voter changes committed%n",
                result.simulatedMs(), s.messagesDelivered(), s.messagesLost(), s.unreachable(), s.timeouts(),
                s.appendsAccepted(), s.appendsAcked(), s.committedOffsets(), s.crashesAndStops(), s.elections(),
                s.faultsInjected(), s.messageFaults(), s.diskFaults(), s.voterChanges());
        SystemStats y = result.system();
        if (y != null) {
            out.printf("  system: %d admin calls, %d write items acknowledged, %d topics created, %d attempts recorded"
                            + " (%d unknown, %d of them sealed); %d registrations, %d fences, %d unfences committed;"
                            + " %d reconcile passes checked; %d snapshots written, %d loaded; broker disks: %d faults"
                            + " armed, %d passes failed, %d crash points hit; %d controlled shutdowns begun, %d"
                            + " completed by the controller; %d voter changes placed by an active controller%n",
                    y.adminCalls(), y.itemsAcknowledged(),
                    y.topicsCreated(), y.historyOperations(), y.unknownOutcomes(), y.sealedOutcomes(),
                    y.registrations(), y.fences(), y.unfences(), y.directoryChecks(), y.snapshotsWritten(),
                    y.snapshotsLoaded(), y.diskFaultsArmed(), y.reconcileFailures(), y.crashPointsHit(),
                    y.controlledShutdownsBegun(),
                    y.controlledShutdownsCompleted(), y.voterChangesTaken());
            out.printf("  authorization: %d answer entries judged against Kafka's StandardAuthorizer, %d of them"
                            + " denied; %d items answered TOPIC_AUTHORIZATION_FAILED; %d denials audited; %d ACL"
                            + " writes sent, %d refused CLUSTER_AUTHORIZATION_FAILED; %d SCRAM writes sent, %d"
                            + " refused CLUSTER_AUTHORIZATION_FAILED, %d users' answers judged, %d acknowledged%n",
                    y.authorizationJudged(), y.authorizationDenied(), y.answersDenied(), y.denialsAudited(),
                    y.aclWritesSent(), y.aclWritesDenied(), y.scramWritesSent(), y.scramWritesDenied(),
                    y.scramUsersJudged(), y.scramUsersAcknowledged());
        }
    }

    /** What the system layer did over all runs, for the summary. */
    private static final class SystemTotals {
        private long calls;
        private long acknowledged;
        private long topics;
        private long fences;
        private long unfences;
        private long elections;
        private long unknown;
        private long shutdownsBegun;
        private long shutdownsCompleted;
        private long authorizationJudged;
        private long authorizationDenied;

        void add(SimulationResult result) {
            SystemStats s = result.system();
            if (s == null) {
                return;
            }
            calls += s.adminCalls();
            acknowledged += s.itemsAcknowledged();
            topics += s.topicsCreated();
            fences += s.fences();
            unfences += s.unfences();
            unknown += s.unknownOutcomes();
            shutdownsBegun += s.controlledShutdownsBegun();
            shutdownsCompleted += s.controlledShutdownsCompleted();
            authorizationJudged += s.authorizationJudged();
            authorizationDenied += s.authorizationDenied();
            elections += result.stats().elections();
        }

        String describe() {
            return "system: " + calls + " admin calls finished, " + acknowledged + " write items acknowledged, "
                    + unknown + " attempts with unknown outcome; " + topics + " topics created; brokers fenced "
                    + fences + " times, unfenced " + unfences + " times; " + shutdownsBegun + " controlled shutdowns begun, "
                    + shutdownsCompleted + " completed by the controller; " + elections + " leader epochs; "
                    + authorizationJudged + " answer entries judged for authorization, " + authorizationDenied
                    + " of them denied";
        }
    }

    /** Replays the chosen run with recording on (same seed, same run) and writes the HTML. */
    private boolean writeTimeline(SimulationOptions options, String file) {
        SimulationResult recorded = Simulation.run(options.withTimeline(true));
        try {
            Files.writeString(Path.of(file), TimelineHtml.render(recorded.timeline(), recorded.timelineHeader()), StandardCharsets.UTF_8);
            out.println("timeline of seed " + options.seed() + " written to " + file);
            return true;
        } catch (IOException e) {
            err.println("mq-simulate: cannot write the timeline to " + file + ": " + e.getMessage());
            return false;
        }
    }
}
