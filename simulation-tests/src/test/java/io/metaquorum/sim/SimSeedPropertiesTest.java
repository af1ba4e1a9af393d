package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The invariants hold for any seed and cluster shape. jqwik picks seeds and shapes the
 * sweep does not (1 to 5 voters, up to 3 observers); its own seed is fixed so the test run
 * is repeatable. Shrinking is off: a nearby seed is an unrelated run. Each run must also meet
 * the floors ({@link RunFloors#PROPERTIES}: faults fired, leader epochs, commits, judged appends).
 */
class SimSeedPropertiesTest {
    static final int TRIES = 40;
    static final long EVENTS = 20_000;
    private static final SimRuns.Totals TOTALS = new SimRuns.Totals();

    @Property(tries = TRIES, seed = "314159", shrinking = ShrinkingMode.OFF)
    void anySeedAndShapeKeepsEveryInvariant(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int voters,
                                            @ForAll @IntRange(min = 0, max = 3) int observers) {
        SimulationResult result = Simulation.run(SimRuns.options(seed, EVENTS, EnumSet.allOf(FaultKind.class), voters,
                observers));
        assertTrue(result.passed(), () -> SimRuns.describe(result));
        SimRuns.assertExercised(result, RunFloors.PROPERTIES);
        TOTALS.add(result);
    }

    @AfterContainer
    static void printTotals() {
        System.out.println("seed and shape property: " + TOTALS);
    }
}
