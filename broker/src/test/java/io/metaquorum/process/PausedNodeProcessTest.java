package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.raft.RaftTimeouts;
import io.metaquorum.server.ConfigKeys;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A node frozen with SIGSTOP: unlike after a kill -9, its TCP connections stay open
 * and nothing resets, so its peers learn of the failure only by their timeouts.
 *
 * <p>A paused leader must be replaced within the fetch timeout plus two election timeouts (the
 * survivors' fetch timers expire, then at most one pre-vote round is lost to randomization),
 * and once continued it must follow the new leader and catch up; three rounds in one cluster.
 * A paused follower must change nothing: no election, the leader keeps committing, and once
 * continued it catches up in the same epoch (its pre-vote, if its fetch timer expired while it
 * was stopped, is refused and persists nothing).
 *
 * <p>The nodes run with the default Raft timeouts, read back from their configuration. Every
 * wait is bounded and polled; the election time is taken from the new leader's own log line
 * for its role change, so the polling interval is not counted against the bound. A paused
 * node is always continued, in a finally block and again by {@link ControllerCluster#close}.
 */
class PausedNodeProcessTest {
    private static final int LEADER_PAUSE_ROUNDS = 3;
    /** Records the leader must commit while a follower is paused. */
    private static final long COMMITS_WHILE_FOLLOWER_PAUSED_MIN = 50;
    /** A NoOpRecord every 20 ms without appends: the high watermark keeps moving on its own. */
    private static final Map<String, String> SETTINGS = Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20");

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void pausedLeaderIsReplacedWithinTheElectionBoundAndFollowsTheNewLeaderOnceContinued(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), SETTINGS);
        long boundMs = electionBoundMs(cluster.raftTimeouts());
        for (int round = 1; round <= LEADER_PAUSE_ROUNDS; round++) {
            pauseTheLeaderOnce("round " + round + ": ", boundMs);
        }
        assertOneLeaderPerEpoch();
    }

    @Test
    void pausedFollowerCausesNoElectionWhileCommitsGoOnAndCatchesUpOnceContinued(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), SETTINGS);
        // Paused at least this long: past its own fetch timeout and the leader's check-quorum
        // timeout (1.5 x fetch), the span within which a needless election would have started.
        long holdMs = electionBoundMs(cluster.raftTimeouts());
        QuorumReport before = awaitSettled("");
        int leader = before.leaderId();
        int epoch = before.leaderEpoch();
        int follower = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        long pausedAtNanos = System.nanoTime();
        QuorumReport during;
        cluster.pause(follower);
        try {
            during = cluster.await("node " + leader + " still leads epoch " + epoch + " and commits "
                    + COMMITS_WHILE_FOLLOWER_PAUSED_MIN + " more records while node " + follower
                    + " is paused, for at least " + holdMs + " ms", () -> sameLeader(leader, epoch)
                    .filter(r -> r.highWatermark() >= before.highWatermark() + COMMITS_WHILE_FOLLOWER_PAUSED_MIN
                            && elapsedMs(pausedAtNanos) >= holdMs));
        } finally {
            cluster.resume(follower);
        }
        QuorumReport caughtUp = cluster.await("continued node " + follower + " follows node " + leader
                + " in epoch " + epoch + " and reaches its high watermark", () -> sameLeader(leader, epoch)
                .filter(r -> r.highWatermark() > during.highWatermark()
                        && voter(r, follower).logEndOffset() >= r.highWatermark() && follows(follower, leader, epoch)));
        assertEquals(epoch, caughtUp.leaderEpoch(), "epoch after the follower's pause");
        List<RoleChange> laterEpochs = cluster.roleChanges().stream().filter(c -> c.toEpoch() > epoch).toList();
        assertEquals(List.of(), laterEpochs, "no node entered an epoch after " + epoch + " (no election)");
        assertOneLeaderPerEpoch();
    }

    /**
     * One round: pauses the leader of a settled quorum, asserts a new leader within
     * {@code boundMs}, continues the old leader and waits until it follows the new one and
     * has caught up.
     */
    private void pauseTheLeaderOnce(String round, long boundMs) {
        QuorumReport before = awaitSettled(round);
        int oldLeader = before.leaderId();
        int epoch = before.leaderEpoch();
        Map<Integer, Long> logMarks = new TreeMap<>();
        ControllerCluster.NODE_IDS.forEach(id -> logMarks.put(id, cluster.node(id).logMark()));
        long pausedAtMs = System.currentTimeMillis();
        long pausedAtNanos = System.nanoTime();
        cluster.pause(oldLeader);
        try {
            QuorumReport after = cluster.awaitLeaderReport(round + "a new leader in an epoch after " + epoch
                    + " while node " + oldLeader + " is paused", r -> r.leaderId() != oldLeader && r.leaderEpoch() > epoch);
            long observedMs = elapsedMs(pausedAtNanos);
            String newLeaderLog = cluster.node(after.leaderId()).logSince(logMarks.get(after.leaderId()));
            RoleChange elected = RoleChange.parse(newLeaderLog).stream()
                    .filter(c -> c.isTo("LEADER", after.leaderEpoch()) && !c.loggedAt().isEmpty()).findFirst()
                    .orElseThrow(() -> new AssertionError(round + "node " + after.leaderId()
                            + " logged no election in epoch " + after.leaderEpoch() + ":\n" + newLeaderLog));
            long electedMs = LogTimestamps.epochMillis(elected.loggedAt()) - pausedAtMs;
            assertTrue(electedMs <= boundMs, round + "node " + after.leaderId() + " led epoch " + after.leaderEpoch()
                    + " " + electedMs + " ms after node " + oldLeader + " was paused (seen " + observedMs
                    + " ms after), bound " + boundMs + " ms (fetch timeout + 2 x election timeout); role changes: "
                    + changesSince(logMarks));
            System.out.println(round + "node " + after.leaderId() + " led epoch " + after.leaderEpoch() + " "
                    + electedMs + " ms after node " + oldLeader + " was paused (bound " + boundMs + " ms)");
        } finally {
            cluster.resume(oldLeader);
        }
        QuorumReport caughtUp = cluster.await(round + "continued node " + oldLeader
                + " follows the new leader and reaches its high watermark", () -> cluster.leaderReport()
                .filter(r -> r.leaderId() != oldLeader && r.leaderEpoch() > epoch
                        && voter(r, oldLeader).logEndOffset() >= r.highWatermark()
                        && follows(oldLeader, r.leaderId(), r.leaderEpoch())));
        String oldLeaderLog = cluster.node(oldLeader).logSince(logMarks.get(oldLeader));
        assertTrue(RoleChange.parse(oldLeaderLog).stream().anyMatch(c -> c.isFrom("LEADER", epoch)),
                round + "node " + oldLeader + " stepped down from epoch " + epoch + " once continued (now led by node "
                        + caughtUp.leaderId() + " in epoch " + caughtUp.leaderEpoch() + "):\n" + oldLeaderLog);
    }

    /** The bound on a new leader after the leader stops answering: fetch timeout + 2 x election timeout. */
    private static long electionBoundMs(RaftTimeouts timeouts) {
        return timeouts.fetchTimeoutMs() + 2L * timeouts.electionTimeoutMs();
    }

    /** A leader, every voter caught up to its high watermark, and both followers following it in its epoch. */
    private QuorumReport awaitSettled(String round) {
        return cluster.await(round + "a leader with every voter caught up and followed by both others",
                () -> cluster.leaderReport().filter(r -> r.highWatermark() > 0
                        && r.voters().size() == ControllerCluster.NODE_IDS.size()
                        && r.voters().stream().allMatch(v -> v.logEndOffset() >= r.highWatermark())
                        && ControllerCluster.NODE_IDS.stream().allMatch(id -> id == r.leaderId()
                                || follows(id, r.leaderId(), r.leaderEpoch()))));
    }

    /**
     * The leader's report if it is {@code leader} in {@code epoch}; empty if no leader answers;
     * fails at once if another leader or epoch answers (an election happened).
     */
    private Optional<QuorumReport> sameLeader(int leader, int epoch) {
        Optional<QuorumReport> report = cluster.leaderReport();
        report.ifPresent(r -> {
            if (r.leaderId() != leader || r.leaderEpoch() != epoch) {
                throw new AssertionError("node " + r.leaderId() + " leads epoch " + r.leaderEpoch() + ", not node "
                        + leader + " epoch " + epoch + ": an election happened\n" + cluster.diagnostics());
            }
        });
        return report;
    }

    private boolean follows(int id, int leaderId, int epoch) {
        Optional<DescribeQuorumPartitionResponse> view = cluster.describePartition(id);
        return view.isPresent() && view.get().getLeaderId() == leaderId && view.get().getLeaderEpoch() == epoch;
    }

    private List<RoleChange> changesSince(Map<Integer, Long> logMarks) {
        return logMarks.entrySet().stream()
                .flatMap(e -> RoleChange.parse(cluster.node(e.getKey()).logSince(e.getValue())).stream()).toList();
    }

    private static QuorumReport.Replica voter(QuorumReport report, int id) {
        return report.voters().stream().filter(v -> v.nodeId() == id).findFirst()
                .orElseThrow(() -> new AssertionError("node " + id + " is not among the voters of " + report));
    }

    private static long elapsedMs(long sinceNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
    }

    private void assertOneLeaderPerEpoch() {
        cluster.leadersByEpoch().forEach((e, leaders) -> assertEquals(1, leaders.size(), "leaders of epoch " + e));
    }
}
