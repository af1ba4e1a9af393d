package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.workload.FaultKind;
import java.util.EnumSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Without faults every cluster shape elects a leader, commits, and converges, and no fault is counted. */
class SimNoFaultTest {
    @ParameterizedTest(name = "{0} voters, {1} observers")
    @CsvSource({"1,0", "1,2", "2,0", "3,0", "3,3", "4,1", "5,0", "5,3"})
    void aRunWithoutFaultsConverges(int voters, int observers) {
        SimulationResult result = Simulation.run(SimRuns.options(100 + voters * 10 + observers, 5000,
                EnumSet.noneOf(FaultKind.class), voters, observers));
        assertTrue(result.passed(), () -> SimRuns.describe(result));
        assertTrue(result.stats().appendsAcked() > 0, "clients were acknowledged");
        assertTrue(result.stats().elections() >= 1);
        assertEquals(0, result.stats().faultsFired(), "the fault counters count faults only");
    }
}
