package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.cli.BrokenRuleRuns;
import io.metaquorum.sim.mutation.RunOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The control run: the mutation machinery with nothing swapped (a world that defines every
 * project class again from the same class files) gives the normal run, byte for byte, so what
 * a mutant run does differently is its mutation's doing and nothing else's.
 */
class SimMutationControlTest {
    private static void assertSameRun(SimulationOptions options) {
        RunOutcome normal = BrokenRuleRuns.outcomeOf(Simulation.run(options));
        RunOutcome control = BrokenRuleRuns.controlOutcome(options);
        assertEquals("caller", normal.world());
        assertEquals("mutation-control", control.world(), "the control run ran in the control world");
        assertTrue(normal.passed(), normal.description());
        assertEquals(normal.summaryLine(), control.summaryLine());
        assertEquals(normal.description(), control.description());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void aRaftRunInTheControlWorldIsTheNormalRun(long seed) {
        assertSameRun(SimulationOptions.defaults(seed));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aSystemRunInTheControlWorldIsTheNormalRun(long seed) {
        assertSameRun(SimulationOptions.systemDefaults(seed));
    }

    /** The comparison can fail: a world with a mutation in it runs differently on the same seed. */
    @Test
    void aMutantWorldDoesNotGiveTheNormalRun() {
        SimulationOptions normal = SimulationOptions.defaults(1);
        RunOutcome mutant = BrokenRuleRuns.outcome(normal.withVariant(BrokenVariant.HW_OVER_OLD_EPOCH));
        assertEquals("mutation-hw-over-old-epoch", mutant.world());
        assertNotEquals(BrokenRuleRuns.outcomeOf(Simulation.run(normal)).summaryLine(), mutant.summaryLine());
    }
}
