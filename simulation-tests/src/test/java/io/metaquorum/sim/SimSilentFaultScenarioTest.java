package io.metaquorum.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.RaftStatus;
import io.metaquorum.sim.cluster.SimNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Silent failures, scripted: a leader paused (SIGSTOP) or black-holed must be
 * replaced within fetch timeout + 2 x election timeout ({@link Scenario#silentLeaderBoundMs},
 * the {@code silent-leader-replaced} check), and once back must step down within 1 s
 * ({@code resumed-leader-steps-down}); a paused follower, a follower refused by a healthy
 * leader and a burst of resets must cause no election. Each ends by healing and requiring
 * convergence.
 */
class SimSilentFaultScenarioTest {
    private static final long BOUND_MS = 60_000;

    /** Leaves the leader silent until replaced (bound asserted), then lets it back and requires it to step down. */
    private static SimNode replaceSilentLeader(Scenario scenario, SimNode leader, boolean pause) {
        int epoch = leader.status().epoch();
        long since = scenario.nowMs();
        if (pause) {
            scenario.pause(leader.nodeId());
        } else {
            scenario.blackHole(leader.nodeId());
        }
        SimNode successor = scenario.awaitSilentLeaderReplaced(leader.nodeId(), epoch, since,
                scenario.silentLeaderBoundMs());
        assertTrue(scenario.nowMs() - since <= scenario.silentLeaderBoundMs());
        scenario.awaitCommitted(10, BOUND_MS);
        if (pause) {
            scenario.resume(leader.nodeId());
        } else {
            scenario.restore(leader.nodeId());
        }
        scenario.awaitSteppedDown(leader.nodeId(), epoch, scenario.nowMs());
        return successor;
    }

    private static SimNode steadyLeader(Scenario scenario) {
        scenario.awaitLeader(BOUND_MS, Set.of());
        scenario.awaitCommitted(20, BOUND_MS);
        return scenario.awaitLeader(BOUND_MS, Set.of());
    }

    /** Waits until every running voter holds the leader's log end, so no survivor is ahead of another. */
    private static void awaitVotersEqual(Scenario scenario, SimNode leader) {
        scenario.runUntil(() -> {
            for (SimNode voter : scenario.cluster().voters()) {
                if (voter.log().endOffset() != leader.log().endOffset()) {
                    return false;
                }
            }
            return true;
        }, BOUND_MS, "every voter at the leader's log end");
    }

    /**
     * The pause itself: the frozen leader keeps its state (its timers stopped, so it does not
     * even resign for want of fetches), its callers time out and no one sees a reset.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aPausedProcessIsFrozenAndItsCallersTimeOut(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        SimNode leader = steadyLeader(scenario);
        RaftStatus before = leader.status();
        long unreachable = scenario.networkStats().unreachable();
        long timedOut = scenario.networkStats().timedOut();
        scenario.pause(leader.nodeId());
        scenario.runFor(6_000);
        RaftStatus frozen = leader.status();
        assertEquals(before.role(), frozen.role());
        assertEquals(before.epoch(), frozen.epoch());
        assertEquals(before.logEndOffset(), frozen.logEndOffset());
        assertEquals(unreachable, scenario.networkStats().unreachable(), "a pause resets no connection");
        assertTrue(scenario.networkStats().timedOut() > timedOut, "calls to the paused leader time out");
        scenario.resume(leader.nodeId());
        scenario.awaitSteppedDown(leader.nodeId(), before.epoch(), scenario.nowMs());
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void leaderPausedThreeVoters(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        SimNode leader = steadyLeader(scenario);
        replaceSilentLeader(scenario, leader, true);
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void leaderBlackHoledThreeVoters(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        SimNode leader = steadyLeader(scenario);
        replaceSilentLeader(scenario, leader, false);
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void fiveVotersLeaderAndOneFollowerPaused(long seed) {
        Scenario scenario = Scenario.start(seed, 5, 1);
        SimNode leader = steadyLeader(scenario);
        int follower = leader.nodeId() % 5 + 1;
        scenario.pause(follower);
        SimNode successor = replaceSilentLeader(scenario, leader, true);
        assertNotEquals(follower, successor.nodeId());
        scenario.resume(follower);
        scenario.healAndConverge(BOUND_MS);
    }

    /**
     * Five voters, leader and one follower paused, the survivors' logs equal: the survivor
     * the "outranks" rule favours (the lowest id) cannot reach one of the other two, so it
     * cannot win; the survivor both others reach must, within the bound. The lowest id
     * refuses it at first ("outranks") and concedes a tenth of an election timeout later
     * when it has not won (before that concession: 4.1-5.5 s after the pause, bound 4 s).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void fiveVotersTwoPausedAndTheFavouredSurvivorCutFromAnother(long seed) {
        favouredSurvivorCutFromAnother(seed);
    }

    private static void favouredSurvivorCutFromAnother(long seed) {
        Scenario scenario = Scenario.start(seed, 5, 1);
        SimNode leader = steadyLeader(scenario);
        int follower = leader.nodeId() % 5 + 1;
        List<Integer> survivors = new ArrayList<>();
        for (SimNode voter : scenario.cluster().voters()) {
            if (voter.nodeId() != leader.nodeId() && voter.nodeId() != follower) {
                survivors.add(voter.nodeId());
            }
        }
        awaitVotersEqual(scenario, leader);
        scenario.pause(follower);
        scenario.partition(Set.of(survivors.get(0)), Set.of(survivors.get(1)));
        SimNode successor = replaceSilentLeader(scenario, leader, true);
        assertEquals(survivors.get(2), successor.nodeId(), "only the survivor both others reach can win");
        scenario.resume(follower);
        scenario.healAndConverge(BOUND_MS);
    }

    /**
     * Observers fetching from the paused leader learn its successor only when their fetch to it
     * times out (the call timeout, 2.5 s): within the same bound again after the election
     * (0.5-2.5 s measured over seeds 1-10).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void leaderPausedWithObserversFetching(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 3);
        SimNode leader = steadyLeader(scenario);
        int epoch = leader.status().epoch();
        long since = scenario.nowMs();
        scenario.pause(leader.nodeId());
        SimNode successor = scenario.awaitSilentLeaderReplaced(leader.nodeId(), epoch, since,
                scenario.silentLeaderBoundMs());
        scenario.runUntil(() -> {
            for (SimNode observer : scenario.cluster().observers()) {
                if (observer.status().leaderId() != successor.nodeId()) {
                    return false;
                }
            }
            return true;
        }, scenario.silentLeaderBoundMs(), "every observer following the new leader");
        scenario.awaitCommitted(10, BOUND_MS);
        scenario.resume(leader.nodeId());
        scenario.awaitSteppedDown(leader.nodeId(), epoch, scenario.nowMs());
        scenario.healAndConverge(BOUND_MS);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void followerPausedCausesNoElection(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        SimNode leader = steadyLeader(scenario);
        int epoch = leader.status().epoch();
        int follower = leader.nodeId() % 3 + 1;
        scenario.pause(follower);
        scenario.awaitCommitted(50, BOUND_MS);
        scenario.runFor(8_000);
        scenario.resume(follower);
        scenario.runFor(10_000);
        assertEquals(epoch, leader.status().epoch(), "no election while or after a follower is paused");
        assertTrue(leader.status().isLeader());
        scenario.healAndConverge(BOUND_MS);
        assertEquals(epoch, leader.status().epoch());
    }

    /**
     * A follower whose calls to a healthy leader are refused (a firewall REJECT, one-sided):
     * UNREACHABLE on every call for 60 s. No election, and the follower changes role (or
     * known leader) at most about once a second.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void followerRefusedByAHealthyLeaderCausesNoElection(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 1);
        SimNode leader = steadyLeader(scenario);
        int epoch = leader.status().epoch();
        int follower = leader.nodeId() % 3 + 1;
        scenario.links().refuse(follower, leader.nodeId());
        int changes = scenario.runForCountingRoleChanges(60_000, follower);
        assertEquals(epoch, leader.status().epoch(), "no election");
        assertTrue(leader.status().isLeader());
        assertTrue(changes <= 60, "follower " + follower + " changed role " + changes + " times in 60 s");
        System.out.println("refused follower (seed " + seed + "): " + changes + " role changes in 60 s");
        scenario.healAndConverge(BOUND_MS);
        assertEquals(epoch, leader.status().epoch());
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void oneBurstOfResetsToAHealthyLeaderChangesNoEpoch(long seed) {
        Scenario scenario = Scenario.start(seed, 3, 2);
        SimNode leader = steadyLeader(scenario);
        int epoch = leader.status().epoch();
        for (SimNode node : scenario.cluster().nodes()) {
            if (node != leader) {
                scenario.resetConnections(node.nodeId(), leader.nodeId());
            }
        }
        scenario.runFor(10_000);
        assertEquals(epoch, leader.status().epoch(), "a burst of resets deposed a healthy leader");
        assertTrue(leader.status().isLeader());
        scenario.healAndConverge(BOUND_MS);
    }
}
