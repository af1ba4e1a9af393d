package io.metaquorum.sim.invariant;

import io.metaquorum.sim.check.CheckFailure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.Scenario;
import io.metaquorum.sim.cluster.SimNode;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The truncation hook, wired as in every run ({@code SimRaftLog.truncateTo} tells the
 * {@link InvariantChecker} before it removes anything): a truncation at or above the node's
 * high watermark is quiet, one below it fails the run at once as a committed record removed.
 */
class SimTruncationHookTest {
    private static SimNode committedFollower(Scenario scenario) {
        SimNode leader = scenario.awaitLeader(4_000, Set.of());
        scenario.awaitCommitted(30, 10_000);
        scenario.runUntil(() -> scenario.cluster().running().stream()
                .anyMatch(node -> node != leader && node.status().highWatermark() >= 30), 10_000, "a follower at 30");
        return scenario.cluster().running().stream()
                .filter(node -> node != leader && node.status().highWatermark() >= 30).findFirst().orElseThrow();
    }

    @Test
    void aTruncationAtTheHighWatermarkIsQuiet() {
        Scenario scenario = Scenario.start(1, 3, 0);
        SimNode follower = committedFollower(scenario);
        long highWatermark = follower.status().highWatermark();
        assertDoesNotThrow(() -> follower.log().truncateTo(highWatermark));
        assertEquals(highWatermark, follower.log().endOffset(), "what lay above the high watermark went");
    }

    @Test
    void aTruncationBelowTheHighWatermarkFailsTheRun() {
        Scenario scenario = Scenario.start(2, 3, 0);
        SimNode follower = committedFollower(scenario);
        long highWatermark = follower.status().highWatermark();
        long endBefore = follower.log().endOffset();
        CheckFailure failure = assertThrows(CheckFailure.class, () -> follower.log().truncateTo(highWatermark - 1));
        assertEquals("committed-entry-stable", failure.invariant());
        assertTrue(failure.getMessage().contains("below its high watermark " + highWatermark), failure.getMessage());
        assertEquals(endBefore, follower.log().endOffset(), "the hook runs before anything is removed");
    }
}
