package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.system.world.SystemStats;
import io.metaquorum.sim.workload.FaultKind;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Disk amnesia and voter changes in system mode: the real controllers and brokers, seeds
 * {@value #BASE_SEED} + 1 to {@value #BASE_SEED} + {@code sim.systemMembershipSeeds}
 * ({@value #DEFAULT_SEEDS} by default), each with {@link FaultKind#WIPE} and
 * {@link FaultKind#MEMBERSHIP} always on and every other fault on with probability 1/2, 3
 * controllers and 3 brokers, the default event budget. Every raft and system invariant must
 * hold and the admin history must check out. Over the sweep most seeds must have changed the
 * voters, and the active controllers must have placed VotersRecords between their own writes
 * (the path that makes a voter change cost no election), or the runs did not test it.
 */
class SimSystemMembershipSweepTest {
    static final long BASE_SEED = 7_500_000;
    static final int DEFAULT_SEEDS = 20;
    private static final int SEEDS = Integer.getInteger("sim.systemMembershipSeeds", DEFAULT_SEEDS);
    private static final VoterChangeTotals CHANGES = new VoterChangeTotals("system membership sweep");
    private static long placedByControllers;
    private static long acknowledged;

    /** The seed's fault mix: wipes and voter changes, and each other fault with probability 1/2. */
    static SimulationOptions options(long seed) {
        return new SimulationOptions(seed, SimulationOptions.DEFAULT_EVENTS,
                SimMembershipSweepTest.faultMix(seed, null), false, 3, 3, BrokenVariant.NONE, false, true);
    }

    @TestFactory
    Stream<DynamicTest> wipesAndVoterChangesUnderTheRealControllersKeepEveryInvariant() {
        return LongStream.rangeClosed(BASE_SEED + 1, BASE_SEED + SEEDS).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    SimulationResult result = Simulation.run(options(seed));
                    SimRuns.assertSweepSeed(result);
                    SystemStats system = result.system();
                    assertNotNull(system, "a system run reports what its system layer did");
                    count(result, system);
                }));
    }

    private static synchronized void count(SimulationResult result, SystemStats system) {
        CHANGES.add(result);
        placedByControllers += system.voterChangesTaken();
        acknowledged += system.itemsAcknowledged();
    }

    @AfterAll
    static void printTotals() {
        System.out.println("system membership sweep: " + SEEDS + " seeds; " + CHANGES + "; " + placedByControllers
                + " placed by an active controller; " + acknowledged + " admin write items acknowledged");
        CHANGES.assertExercised(SEEDS, 10);
        assertTrue(placedByControllers > 0, "no active controller placed a voter change");
    }
}
