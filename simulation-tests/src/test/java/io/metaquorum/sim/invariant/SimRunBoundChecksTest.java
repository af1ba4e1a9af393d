package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The checks that bound a run in simulated time: quiet while the bound holds, firing by name once it is passed. */
class SimRunBoundChecksTest {
    private static CheckFailure assertFails(String invariant, Executable check) {
        CheckFailure failure = assertThrows(CheckFailure.class, check);
        assertEquals(invariant, failure.invariant(), failure.getMessage());
        return failure;
    }

    @Test
    void manyEventsAtOneTimeAreQuietUpToTheBound() {
        TimeAdvanceCheck check = new TimeAdvanceCheck(5);
        assertDoesNotThrow(() -> {
            for (long time = 0; time < 4; time++) {
                for (int i = 0; i <= 5; i++) {
                    check.observe(time);
                }
            }
        });
    }

    @Test
    void eventsThatNeverLetTimeMoveOnAreABusyLoop() {
        TimeAdvanceCheck check = new TimeAdvanceCheck(5);
        check.observe(7);
        // The first event at 8 ms, then five more at it: the bound; a sixth more is one too many.
        for (int i = 0; i < 6; i++) {
            check.observe(8);
        }
        CheckFailure failure = assertFails(TimeAdvanceCheck.NAME, () -> check.observe(8));
        assertTrue(failure.getMessage().contains("at simulated time 8 ms"), failure.getMessage());
        TimeAdvanceCheck restarted = new TimeAdvanceCheck(5);
        for (int i = 0; i < 6; i++) {
            restarted.observe(8);
        }
        assertFails(TimeAdvanceCheck.NAME, () -> restarted.observe(8));
    }

    @Test
    void aResumedLeaderThatLeavesItsEpochInTimeStepsDown() {
        StepDownCheck check = new StepDownCheck(1, 4, 1_000, 1_000, "pause");
        assertFalse(check.steppedDown(true, 4, 1_000, () -> ""), "just back, still in its epoch");
        assertFalse(check.steppedDown(true, 4, 2_000, () -> ""), "at the bound: may still");
        assertTrue(check.steppedDown(true, 5, 2_000, () -> ""));
        assertTrue(check.steppedDown(false, 4, 5_000, () -> ""), "stopped: nothing left to judge");
    }

    @Test
    void aResumedLeaderStillInItsEpochPastTheBoundIsCaught() {
        StepDownCheck check = new StepDownCheck(1, 4, 1_000, 1_000, "black-hole");
        CheckFailure failure = assertFails(StepDownCheck.NAME, () -> check.steppedDown(true, 4, 2_001,
                () -> "nodes: 1=LEADER/e4"));
        assertEquals(StepDownCheck.NAME + ": old leader 1 still in epoch 4 1001 ms after its black-hole ended; bound "
                + "1000 ms; nodes: 1=LEADER/e4", failure.getMessage());
        assertFails(StepDownCheck.NAME, () -> check.steppedDown(true, 3, 9_000, () -> ""));
    }
}
