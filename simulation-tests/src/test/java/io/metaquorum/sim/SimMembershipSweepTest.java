package io.metaquorum.sim;

import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Disk amnesia and voter changes (KIP-853, kraft.version 1): seeds {@value #BASE_SEED} + 1 to
 * {@value #BASE_SEED} + {@code sim.membershipSeeds} ({@value #DEFAULT_SEEDS} by default, about
 * 45 s on two cores; the long mode runs half its {@code sim.seeds}), each with
 * {@link FaultKind#WIPE} and {@link FaultKind#MEMBERSHIP} always on and every other fault on
 * with probability 1/2, drawn from the seed (swarm testing with the two faults under test
 * pinned), 3 voters and 2 observers, the default event budget. Every invariant must hold; over
 * the sweep, most seeds must have changed the voters, or the runs did not test what they are
 * for, and few may end beyond the disk-loss bound ({@link Simulation#BEYOND_DISK_LOSS_BOUND}:
 * liveness is not judged there).
 */
class SimMembershipSweepTest {
    static final long BASE_SEED = 7_000_000;
    static final int DEFAULT_SEEDS = 300;
    /** {@code -Dsim.membershipSeeds=N}; the long mode's {@code -Dsim.seeds=N} (above 600) runs N / 2 here. */
    private static final int SEEDS = Integer.getInteger("sim.membershipSeeds",
            Math.max(DEFAULT_SEEDS, SimRuns.SWEEP_SEEDS / 2));
    private static final SimRuns.Totals TOTALS = new SimRuns.Totals();
    private static final VoterChangeTotals CHANGES = new VoterChangeTotals("membership sweep");

    /** The seed's fault mix: wipes and voter changes, and each other fault with probability 1/2. */
    static SimulationOptions options(long seed) {
        return new SimulationOptions(seed, SimulationOptions.DEFAULT_EVENTS, faultMix(seed, FaultKind.DISK_FULL),
                false, 3, 2, BrokenVariant.NONE, false);
    }

    /**
     * {@link FaultKind#WIPE} and {@link FaultKind#MEMBERSHIP}, and each other fault but
     * {@code excluded} with probability 1/2, drawn from {@code seed} (no draw for the excluded one).
     */
    static EnumSet<FaultKind> faultMix(long seed, FaultKind excluded) {
        EnumSet<FaultKind> faults = EnumSet.of(FaultKind.WIPE, FaultKind.MEMBERSHIP);
        Random mix = new Random(seed);
        for (FaultKind kind : FaultKind.values()) {
            if (kind != excluded && mix.nextBoolean()) {
                faults.add(kind);
            }
        }
        return faults;
    }

    @TestFactory
    Stream<DynamicTest> wipesAndVoterChangesKeepEveryInvariant() {
        return LongStream.rangeClosed(BASE_SEED + 1, BASE_SEED + SEEDS).mapToObj(seed -> DynamicTest.dynamicTest(
                "seed " + seed, () -> {
                    SimulationResult result = Simulation.run(options(seed));
                    SimRuns.assertSweepSeed(result);
                    TOTALS.add(result);
                    CHANGES.add(result);
                }));
    }

    @AfterAll
    static void printTotals() {
        System.out.println("membership sweep: " + TOTALS + "; " + CHANGES);
        CHANGES.assertExercised(SEEDS, 20);
    }
}
