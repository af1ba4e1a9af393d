package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.system.world.SystemStats;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The system-mode sweep ({@code mq-simulate --system}): seeds 1..{@value #SEEDS}, every fault
 * allowed (each seed draws its mix), 3 controllers and 3 brokers, the default event budget.
 * Every seed must pass (raft and system invariants after every event, the admin history at
 * the end) and must have exercised the layer, per seed, at least as much as its floors
 * ({@link SystemFloors}, {@link RunFloors#SYSTEM}: admin calls, judged answers, acknowledged
 * writes, broker registrations, faults, commits, a controller failover). Over the sweep, at least {@value #FENCED_AND_UNFENCED_SEEDS_MIN}
 * seeds must have fenced a broker and unfenced it again (a seed whose faults spare the brokers
 * does neither), and at least one broker's controlled shutdown must have been completed by the
 * controller (only seeds that draw the shutdown fault stop brokers gracefully); snapshots must
 * have been written and loaded, and the brokers' disks must have failed a reconcile pass (a
 * write error) and killed a broker in the middle of one (a crash point), and at least one seed
 * must have given a node a bad certificate (the fault is in the schedule this suite runs), and
 * SCRAM credential writes must have been sent and some of their users answered NONE.
 */
class SimSystemSweepTest {
    static final long SEEDS = 10;
    static final int FENCED_AND_UNFENCED_SEEDS_MIN = 7;
    private static long fencedAndUnfenced;
    private static long acknowledged;
    private static long topics;
    private static long events;
    private static long shutdownsBegun;
    private static long shutdownsCompleted;
    private static long snapshotsWritten;
    private static long snapshotsLoaded;
    private static long reconcileFailures;
    private static long crashPointsHit;
    private static long badCertificateSeeds;
    private static long badCertificates;
    private static long scramWritesSent;
    private static long scramWritesDenied;
    private static long scramUsersJudged;
    private static long scramUsersAcknowledged;
    /** The smallest value of each floored metric over the seeds run: what the floors are set below. */
    private static final Map<String, Long> MINIMA = new TreeMap<>();

    @TestFactory
    Stream<DynamicTest> everySystemSeedKeepsEveryInvariant() {
        return LongStream.rangeClosed(1, SEEDS).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            SimulationResult result = Simulation.run(SimulationOptions.systemDefaults(seed));
            assertTrue(result.passed(), result::describe);
            SystemStats system = result.system();
            assertNotNull(system, "a system run reports what its system layer did");
            List<String> unmet = SystemFloors.SWEEP.unmet(result);
            assertTrue(unmet.isEmpty(), "seed " + seed + " passed without exercising enough: " + unmet + "\n  "
                    + result.stats() + "\n  " + system);
            recordMinima(result);
            fencedAndUnfenced += system.unfencesAfterFence() > 0 ? 1 : 0;
            acknowledged += system.itemsAcknowledged();
            topics += system.topicsCreated();
            events += result.events();
            shutdownsBegun += system.controlledShutdownsBegun();
            shutdownsCompleted += system.controlledShutdownsCompleted();
            snapshotsWritten += system.snapshotsWritten();
            snapshotsLoaded += system.snapshotsLoaded();
            reconcileFailures += system.reconcileFailures();
            crashPointsHit += system.crashPointsHit();
            badCertificateSeeds += result.stats().badCertificates() > 0 ? 1 : 0;
            badCertificates += result.stats().badCertificates();
            scramWritesSent += system.scramWritesSent();
            scramWritesDenied += system.scramWritesDenied();
            scramUsersJudged += system.scramUsersJudged();
            scramUsersAcknowledged += system.scramUsersAcknowledged();
        }));
    }

    private static synchronized void recordMinima(SimulationResult result) {
        Map<String, Long> metrics = new TreeMap<>(SystemFloors.metrics(result.system()));
        metrics.put("faults fired", result.stats().faultsFired());
        metrics.put("leader epochs", result.stats().elections());
        metrics.put("offsets committed", result.stats().committedOffsets());
        metrics.forEach((name, value) -> MINIMA.merge(name, value, Math::min));
    }

    @AfterAll
    static void theSweepFencedUnfencedAndLetGoBrokers() {
        System.out.println("system sweep: " + SEEDS + " seeds, " + events + " events, " + acknowledged
                + " write items acknowledged, " + topics + " topics created, " + fencedAndUnfenced
                + " seeds fenced and unfenced a broker, " + shutdownsBegun + " controlled shutdowns begun, "
                + shutdownsCompleted + " completed by the controller, " + snapshotsWritten + " snapshots written, "
                + snapshotsLoaded + " loaded, " + reconcileFailures + " reconcile passes failed by a disk error, "
                + crashPointsHit + " brokers killed at a crash point, " + badCertificates + " bad certificates in "
                + badCertificateSeeds + " seeds, " + scramWritesSent + " SCRAM writes sent (" + scramWritesDenied
                + " refused CLUSTER_AUTHORIZATION_FAILED, " + scramUsersJudged + " users' answers judged by the rules, "
                + scramUsersAcknowledged + " acknowledged); per seed at least " + MINIMA);
        assertTrue(snapshotsWritten >= 1 && snapshotsLoaded >= 1, "snapshots: " + snapshotsWritten + " written, "
                + snapshotsLoaded + " loaded");
        assertTrue(reconcileFailures >= 1 && crashPointsHit >= 1, "broker disks: " + reconcileFailures
                + " failed passes, " + crashPointsHit + " crash points hit");
        assertTrue(shutdownsCompleted >= 1, "no broker's controlled shutdown was completed by the controller ("
                + shutdownsBegun + " begun)");
        assertTrue(badCertificateSeeds >= 1, "no seed gave a node a bad certificate");
        assertTrue(scramWritesSent >= 1 && scramUsersAcknowledged >= 1, "SCRAM writes: " + scramWritesSent
                + " sent, " + scramUsersAcknowledged + " users acknowledged");
        assertTrue(fencedAndUnfenced >= FENCED_AND_UNFENCED_SEEDS_MIN, fencedAndUnfenced + " of " + SEEDS
                + " seeds fenced and unfenced a broker");
    }
}
