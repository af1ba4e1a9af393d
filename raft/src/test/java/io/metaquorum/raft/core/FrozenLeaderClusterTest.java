package io.metaquorum.raft.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.raft.core.CoreCluster.Node;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A leader frozen in place (SIGSTOP: no answer, no reset) must be replaced within the
 * fetch timeout plus two election timeouts, on every seed, with 3 and 5 voters and with
 * observers fetching; when it resumes it steps down and catches up. Delivery here is
 * instant, so the survivors' timers fire in lockstep; the crossed pre-votes of timers a few
 * milliseconds apart are the simulator's cases (and {@link SilentLeaderElectionTest}'s).
 */
class FrozenLeaderClusterTest {
    private static final RaftTimeouts T = RaftTimeouts.DEFAULTS;
    private static final long BOUND_MS = T.fetchTimeoutMs() + 2L * T.electionTimeoutMs();
    private static final int SEEDS = 40;

    /** Freezes the leader (and {@code alsoFrozen} followers); returns ms until another voter leads. */
    private static long freezeLeaderAndTimeElection(CoreCluster cluster, int alsoFrozen) {
        Node old = cluster.awaitLeader();
        cluster.appendThroughLeader("before");
        cluster.runFor(300);
        List<Integer> frozen = new ArrayList<>(List.of(old.id));
        for (int id : cluster.voterIds) {
            if (frozen.size() <= alsoFrozen && id != old.id) {
                frozen.add(id);
            }
        }
        frozen.forEach(cluster::freeze);
        long frozenAt = cluster.nowMs;
        cluster.runUntil(() -> cluster.leader() != null && !frozen.contains(cluster.leader().id), 30_000);
        long took = cluster.nowMs - frozenAt;
        cluster.appendThroughLeader("after");
        int newEpoch = cluster.leader().status().epoch();
        frozen.forEach(cluster::thaw);
        long thawedAt = cluster.nowMs;
        cluster.runUntil(() -> !old.status().isLeader() && old.status().epoch() >= newEpoch, 5_000);
        assertTrue(cluster.nowMs - thawedAt <= 1_000, "the old leader stepped down "
                + (cluster.nowMs - thawedAt) + " ms after resuming");
        cluster.runUntil(() -> old.listener.committed.contains("after"), 10_000);
        return took;
    }

    private static List<Long> runSeeds(int voters, int observers, int alsoFrozen) {
        List<Long> times = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            CoreCluster cluster = new CoreCluster(voters, observers, seed);
            times.add(freezeLeaderAndTimeElection(cluster, alsoFrozen));
        }
        return times;
    }

    private static void assertAllWithinBound(List<Long> times) {
        long worst = times.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(worst <= BOUND_MS, "worst election " + worst + " ms > " + BOUND_MS + " ms: " + times);
    }

    @Test
    void threeVotersReplaceAFrozenLeaderWithinTheBoundOnEverySeed() {
        assertAllWithinBound(runSeeds(3, 0, 0));
    }

    @Test
    void threeVotersWithObserversFetching() {
        assertAllWithinBound(runSeeds(3, 2, 0));
    }

    @Test
    void fiveVotersReplaceAFrozenLeader() {
        assertAllWithinBound(runSeeds(5, 0, 0));
    }

    @Test
    void fiveVotersWithTheLeaderAndOneFollowerFrozen() {
        assertAllWithinBound(runSeeds(5, 1, 1));
    }
}
