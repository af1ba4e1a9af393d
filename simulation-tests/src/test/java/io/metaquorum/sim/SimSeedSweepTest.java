package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The main safety run: seeds 1..{@code sim.seeds} (200 by default; the long mode passes
 * thousands), each with every fault allowed (each seed draws its own mix), 3 voters and 2
 * observers, the default event budget. A failing seed names the invariant, the event and
 * the replay command. A seed that passes must also have done at least what the floors ask of
 * every seed ({@link RunFloors#SWEEP}: faults fired, leader epochs, offsets committed, appends
 * judged; {@link SimRuns#assertSweepExercised}); a run that does little proves little. Over
 * the sweep, at least one seed must have given a node a bad certificate: the fault is in the
 * schedule this suite runs, not only in scripted scenarios.
 */
class SimSeedSweepTest {
    private static final SimRuns.Totals TOTALS = new SimRuns.Totals();
    private static long badCertificateSeeds;

    @TestFactory
    Stream<DynamicTest> everySeedKeepsEveryInvariant() {
        return LongStream.rangeClosed(1, SimRuns.SWEEP_SEEDS).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed,
                () -> {
                    SimulationResult result = Simulation.run(SimulationOptions.defaults(seed));
                    SimRuns.assertSweepSeed(result);
                    SimRuns.assertSweepExercised(result);
                    TOTALS.add(result);
                    countBadCertificates(result);
                }));
    }

    private static synchronized void countBadCertificates(SimulationResult result) {
        badCertificateSeeds += result.stats().badCertificates() > 0 ? 1 : 0;
    }

    @AfterAll
    static void printTotals() {
        System.out.println("seed sweep: " + TOTALS + "; " + badCertificateSeeds + " seeds gave a node a bad"
                + " certificate");
        assertTrue(badCertificateSeeds >= 1, "no seed of the sweep gave a node a bad certificate");
    }
}
