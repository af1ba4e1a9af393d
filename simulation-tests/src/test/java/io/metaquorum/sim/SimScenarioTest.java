package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.RoleName;
import io.metaquorum.sim.cluster.SimNode;
import io.metaquorum.sim.storage.DiskProfile;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The known hard cases of a Raft quorum, scripted, each over a few seeds.
 * The invariants run after every event as in a seeded run; each scenario ends by healing
 * and requiring convergence.
 */
class SimScenarioTest {
    private static final long BOUND_MS = 60_000;

    private static Set<Integer> ids(int... ids) {
        Set<Integer> set = new TreeSet<>();
        for (int id : ids) {
            set.add(id);
        }
        return set;
    }

    private static Set<Integer> others(Scenario scenario, Set<Integer> excluded) {
        Set<Integer> rest = new TreeSet<>();
        for (SimNode node : scenario.cluster().nodes()) {
            if (!excluded.contains(node.nodeId())) {
                rest.add(node.nodeId());
            }
        }
        return rest;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void leaderIsolatedWithAMinorityWhileTheMajorityElectsAnother(long seed) {
        Scenario scenario = Scenario.start(seed, 5, 1);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(20, BOUND_MS);
        SimNode oldLeader = scenario.awaitLeader(BOUND_MS, Set.of());
        int companion = oldLeader.nodeId() % 5 + 1;
        Set<Integer> minority = ids(oldLeader.nodeId(), companion);
        scenario.partition(minority, others(scenario, minority));
        long majoritySideHeld = 0;
        for (int id : others(scenario, minority)) {
            SimNode node = scenario.node(id);
            if (node.isVoter() && node.isRunning()) {
                majoritySideHeld = Math.max(majoritySideHeld, node.disk().durableEndOffset());
            }
        }
        long oldLeaderHw = oldLeader.status().highWatermark();
        int oldEpoch = oldLeader.status().epoch();
        long committedAtSplit = scenario.committedOffset();
        SimNode newLeader = scenario.awaitLeader(BOUND_MS, minority);
        assertTrue(newLeader.status().epoch() > oldEpoch, () -> "new leader " + newLeader.status() + " old "
                + oldLeader.status() + " epoch at split " + oldEpoch);
        scenario.awaitCommitted(20, BOUND_MS);
        assertTrue(scenario.committedOffset() >= committedAtSplit + 20, "the majority makes progress");
        // It may still commit what the majority side durably held before the split (its own
        // sync completing later), but nothing beyond.
        assertTrue(oldLeader.status().highWatermark() <= Math.max(oldLeaderHw, majoritySideHeld),
                "the isolated leader commits nothing the majority did not hold");
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void backToBackLeaderFailures(long seed) {
        Scenario scenario = Scenario.start(seed, 5, 1);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        SimNode first = scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.crash(first.nodeId());
        SimNode second = scenario.awaitLeader(BOUND_MS, ids(first.nodeId()));
        scenario.crash(second.nodeId());
        SimNode third = scenario.awaitLeader(BOUND_MS, ids(first.nodeId(), second.nodeId()));
        assertNotEquals(first.nodeId(), third.nodeId());
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void allNodesKilledAtOnce(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 2);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(30, BOUND_MS);
        long committed = scenario.committedOffset();
        for (SimNode node : scenario.cluster().nodes()) {
            scenario.crash(node.nodeId());
        }
        scenario.runFor(3_000);
        scenario.restart(1);
        scenario.restart(2);
        scenario.awaitLeader(BOUND_MS, ids(3));
        scenario.awaitCommitted(10, BOUND_MS);
        assertTrue(scenario.committedOffset() >= committed + 10);
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aNodeLosesItsUnsyncedTail(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        // A slow disk: appends stay unsynced for 400 ms; the crash comes while some are.
        leader.disk().setProfile(new DiskProfile(400, 400, 0, 0, 0, false, 0));
        long lossesBefore = leader.dataLossCount();
        scenario.runFor(20);
        scenario.runUntil(() -> leader.isRunning() && leader.log().endOffset() > leader.log().flushedEndOffset(),
                BOUND_MS, "the leader holding unsynced records");
        scenario.crash(leader.nodeId());
        leader.disk().setProfile(DiskProfile.reliable());
        assertEquals(lossesBefore + 1, leader.dataLossCount(), "the crash lost the unsynced tail");
        scenario.awaitLeader(BOUND_MS, ids(leader.nodeId()));
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aMinorityDiskWipe(long seed) {
        Scenario scenario = Scenario.start(seed, 5, 1);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(30, BOUND_MS);
        int follower = leader.nodeId() % 5 + 1;
        scenario.wipe(follower);
        scenario.awaitCommitted(20, BOUND_MS);
        scenario.runUntil(() -> scenario.node(follower).isRunning(), BOUND_MS, "the wiped voter rejoining");
        scenario.healAndConverge(BOUND_MS);
        assertTrue(scenario.node(follower).log().endOffset() >= scenario.committedOffset());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aLeaderThatCanSendButNotReceive(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        for (SimNode other : scenario.cluster().nodes()) {
            scenario.links().cut(other.nodeId(), leader.nodeId());
        }
        SimNode successor = scenario.awaitLeader(BOUND_MS, ids(leader.nodeId()));
        assertNotEquals(leader.nodeId(), successor.nodeId());
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.runUntil(() -> !leader.status().isLeader(), BOUND_MS, "the deaf leader stepping down");
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void aCandidateCutOffMidElectionRejoins(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(10, BOUND_MS);
        SimNode leader = scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.crash(leader.nodeId());
        SimNode[] candidate = new SimNode[1];
        scenario.runUntil(() -> {
            for (SimNode node : scenario.cluster().voters()) {
                if (node.isRunning() && node.status().role() == RoleName.CANDIDATE) {
                    candidate[0] = node;
                    return true;
                }
            }
            return false;
        }, BOUND_MS, "a candidate");
        scenario.partition(ids(candidate[0].nodeId()), others(scenario, ids(candidate[0].nodeId())));
        scenario.restart(leader.nodeId());
        scenario.awaitLeader(BOUND_MS, ids(candidate[0].nodeId()));
        scenario.runFor(20_000);
        scenario.healAndConverge(BOUND_MS);
    }
}
