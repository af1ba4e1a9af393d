package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.sim.cluster.SimNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node with a bad certificate can never be counted in a majority: with two of three voters'
 * certificates bad (the two followers, or the leader and a follower), nothing appended after
 * the fault commits and the high watermark stops everywhere, however long it lasts; once the
 * certificates are fixed, commits resume and the cluster converges. Raft-only, 3 voters and 2
 * observers under a steady load; the invariants run after every event.
 */
class SimBadCertificateScenarioTest {
    private static final long BOUND_MS = 60_000;
    /** Long enough for what was acknowledged before the fault to be counted (one round trip and a sync). */
    private static final long SETTLE_MS = 200;

    @ParameterizedTest(name = "seed {0}, leader among them: {1}")
    @CsvSource({"1, false", "2, false", "3, false", "1, true", "2, true", "3, true"})
    void twoVotersWithBadCertificatesStopEveryCommitUntilFixed(long seed, boolean leaderBad) {
        Scenario scenario = Scenario.start(seed, 3, 2);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(20, BOUND_MS);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        List<Integer> bad = new ArrayList<>();
        for (SimNode voter : scenario.cluster().voters()) {
            if (voter != leader) {
                bad.add(voter.nodeId());
            }
        }
        if (leaderBad) {
            bad.set(0, leader.nodeId());
        }
        long leaderEndAtFault = leader.log().endOffset();
        bad.forEach(scenario::breakCertificate);
        scenario.runFor(SETTLE_MS);
        long frozen = scenario.committedOffset();
        assertTrue(frozen <= leaderEndAtFault, "committed " + frozen + ", beyond what the leader held at the fault ("
                + leaderEndAtFault + ")");

        scenario.runFor(20_000);
        assertEquals(frozen, scenario.committedOffset(), "a commit with voters " + bad + " of 3 refused by all");
        for (SimNode node : scenario.cluster().running()) {
            assertTrue(node.status().highWatermark() <= frozen, "node " + node.nodeId() + " has high watermark "
                    + node.status().highWatermark() + " past " + frozen);
        }

        bad.forEach(scenario::fixCertificate);
        scenario.awaitCommitted(10, BOUND_MS);
        assertTrue(scenario.committedOffset() > frozen);
        scenario.healAndConverge(BOUND_MS);
    }
}
