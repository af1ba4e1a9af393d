package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.process.DumpedLog.DumpedRecord;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.server.ConfigKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The leader process goes away: kill -9 (a new leader is elected, no committed record is
 * lost, the killed node restarts and catches up) and SIGTERM (the leader resigns and hands
 * over through EndQuorumEpoch instead of letting the followers time out).
 */
class LeaderFailoverProcessTest {
    private static final long COMMITTED_RECORDS_MIN = 40;
    /**
     * A follower timeout far beyond every wait of the SIGTERM test: a follower that starts an
     * election there cannot have done so because its fetch timed out.
     */
    private static final String FETCH_TIMEOUT_BEYOND_THE_TEST_MS = "600000";
    /**
     * The resigning leader waits this long for its successors' EndQuorumEpoch answers: far
     * beyond any scheduling hiccup, so "graceful shutdown complete" means they answered.
     */
    private static final String REQUEST_TIMEOUT_MS = "10000";

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void killedLeaderIsReplacedLosesNoCommittedRecordAndCatchesUpAfterRestart(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20"));
        QuorumReport before = cluster.awaitAllCaughtUp("a leader with a high watermark of at least "
                + COMMITTED_RECORDS_MIN + " and every voter caught up", COMMITTED_RECORDS_MIN);
        int oldLeader = before.leaderId();
        long committedBeforeKill = before.highWatermark();

        assertEquals(ControllerProcess.EXIT_SIGKILL, cluster.killHard(oldLeader), "exit status of kill -9");
        assertEquals(List.of(), filesIn(cluster.node(oldLeader).tmpDir()),
                "bin/mq-server loads RocksDB's library from target/native: kill -9 leaves no copy in the tmpdir");
        List<RoleChange> killedNodeChanges = RoleChange.parse(cluster.node(oldLeader).logSince(0));
        assertTrue(!killedNodeChanges.isEmpty() && killedNodeChanges.get(killedNodeChanges.size() - 1)
                        .isTo("LEADER", before.leaderEpoch()),
                "node " + oldLeader + " still led epoch " + before.leaderEpoch() + " when killed: " + killedNodeChanges);

        QuorumReport after = cluster.awaitLeaderReport("a new leader in a higher epoch commits past "
                + committedBeforeKill, r -> r.leaderId() != oldLeader && r.leaderEpoch() > before.leaderEpoch()
                && r.highWatermark() > committedBeforeKill);

        cluster.restart(oldLeader);
        QuorumReport caughtUp = cluster.awaitLeaderReport("restarted node " + oldLeader
                + " reaches the leader's high watermark", r -> r.highWatermark() > after.highWatermark()
                && voter(r, oldLeader).logEndOffset() >= r.highWatermark());
        assertTrue(RoleChange.parse(cluster.node(oldLeader).logOfThisIncarnation()).stream()
                        .anyMatch(c -> c.toRole().equals("FOLLOWER") && c.toEpoch() >= after.leaderEpoch()),
                "restarted node " + oldLeader + " follows a leader of epoch >= " + after.leaderEpoch() + ":\n"
                        + cluster.node(oldLeader).logOfThisIncarnation());

        cluster.terminateAll().forEach((id, code) ->
                assertEquals(ControllerProcess.EXIT_SIGTERM, code, "exit status of node " + id));
        long committed = caughtUp.highWatermark();
        List<DumpedLog> logs = cluster.dump(ControllerCluster.NODE_IDS);
        List<String> reference = lines(logs.get(0).below(committed));
        assertEquals(LongStream.range(0, committed).boxed().toList(),
                logs.get(0).below(committed).stream().map(DumpedRecord::offset).toList(),
                "node 1 holds every committed offset below " + committed);
        for (DumpedLog log : logs) {
            assertEquals(lines(logs.get(0).below(committedBeforeKill)), lines(log.below(committedBeforeKill)),
                    "records committed before the kill [0, " + committedBeforeKill + "), on node " + log.nodeId());
            assertEquals(reference, lines(log.below(committed)),
                    "committed prefix [0, " + committed + ") on node " + log.nodeId());
        }
        assertOneLeaderPerEpoch();
    }

    @Test
    void sigtermOfTheLeaderHandsOverWithoutWaitingForATimeout(TestInfo test) {
        handOverBySigterm(test);
        assertOneLeaderPerEpoch();
    }

    /**
     * The strict form of the hand-over: the successor wins the first election after the
     * resignation, in epoch E+1. Only the first preferred successor campaigns at once (the
     * others wait their EndQuorumEpoch backoff), and the resigned leader keeps answering until
     * a successor leads, so its vote is there to decide. Repeated because a split vote was
     * once an intermittent failure here.
     */
    @RepeatedTest(3)
    void sigtermOfTheLeaderElectsItsSuccessorInOneRound(TestInfo test) {
        Handover handover = handOverBySigterm(test);
        assertEquals(handover.epoch() + 1, handover.newLeader().leaderEpoch(),
                "the successor won the first election after the resignation; role changes: "
                        + handover.survivorChanges());
        assertOneLeaderPerEpoch();
    }

    /** What a SIGTERM hand-over did: the old leader and epoch, the new leader, the survivors' role changes. */
    private record Handover(int oldLeader, int epoch, QuorumReport newLeader, List<RoleChange> survivorChanges) {
    }

    /**
     * SIGTERM to the leader of a settled quorum; asserts the graceful stop (exit 143, pid file
     * removed), the resignation, that a follower campaigned on it without a pre-vote, and a new leader.
     */
    private Handover handOverBySigterm(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(
                ConfigKeys.FETCH_TIMEOUT_MS, FETCH_TIMEOUT_BEYOND_THE_TEST_MS,
                ConfigKeys.REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_MS));
        QuorumReport before = cluster.awaitAllCaughtUp("a leader with every voter caught up", 1);
        int oldLeader = before.leaderId();
        int epoch = before.leaderEpoch();
        List<Integer> followers = ControllerCluster.NODE_IDS.stream().filter(id -> id != oldLeader).toList();
        cluster.await("both followers follow node " + oldLeader + " in epoch " + epoch,
                () -> followers.stream().allMatch(id -> follows(id, oldLeader, epoch)) ? Optional.of(true)
                        : Optional.empty());
        Map<Integer, Long> logMarks = new HashMap<>();
        ControllerCluster.NODE_IDS.forEach(id -> logMarks.put(id, cluster.node(id).logMark()));
        long pid = cluster.node(oldLeader).pid();
        assertEquals(Optional.of(pid), cluster.node(oldLeader).readPidFile(), "server.pid holds the JVM's pid");

        assertEquals(ControllerProcess.EXIT_SIGTERM, cluster.terminate(oldLeader), "exit status after SIGTERM");
        assertFalse(Files.exists(cluster.node(oldLeader).pidFile()), "server.pid removed on a graceful stop");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " is gone");

        QuorumReport after = cluster.awaitLeaderReport("a new leader in a higher epoch",
                r -> r.leaderId() != oldLeader && r.leaderEpoch() > epoch);
        String oldLeaderLog = cluster.node(oldLeader).logSince(logMarks.get(oldLeader));
        assertTrue(RoleChange.parse(oldLeaderLog).stream().anyMatch(c -> c.nodeId() == oldLeader
                        && c.isFrom("LEADER", epoch) && c.isTo("RESIGNED", epoch)),
                "node " + oldLeader + " resigned epoch " + epoch + " on SIGTERM:\n" + oldLeaderLog);
        List<RoleChange> survivorChanges = followers.stream()
                .flatMap(id -> RoleChange.parse(cluster.node(id).logSince(logMarks.get(id))).stream()).toList();
        // With a 10-minute fetch timeout, no follower's fetch timed out during the test: only the
        // resignation makes one campaign, and a successor the leader named skips the pre-vote.
        RoleChange firstCampaign = survivorChanges.stream()
                .filter(c -> c.isFrom("FOLLOWER", epoch) && c.isTo("CANDIDATE", epoch + 1))
                .min(Comparator.comparing(RoleChange::loggedAt))
                .orElseThrow(() -> new AssertionError("no follower of epoch " + epoch
                        + " campaigned without a pre-vote: " + survivorChanges));
        // And it was the resignation: the first preferred successor campaigns in the same driver pass
        // that handles EndQuorumEpoch, before its answer leaves, and the old leader logs "graceful
        // shutdown complete" only once every successor answered (the 10 s request timeout is never
        // reached here); its transport, and with it every connection, closes after that line.
        String handoverComplete = LogTimestamps.ofFirstLineContaining(oldLeaderLog, "graceful shutdown complete")
                .orElseThrow(() -> new AssertionError("node " + oldLeader + " logged no completed graceful shutdown:\n"
                        + oldLeaderLog));
        assertTrue(firstCampaign.loggedAt().compareTo(handoverComplete) <= 0, "the first campaign (" + firstCampaign
                + ") precedes the end of the resignation handshake (" + handoverComplete + "):\n" + oldLeaderLog);
        assertTrue(survivorChanges.stream().anyMatch(c -> c.nodeId() == after.leaderId()
                        && c.isTo("LEADER", after.leaderEpoch())),
                "node " + after.leaderId() + " logged its election in epoch " + after.leaderEpoch() + ": "
                        + survivorChanges);
        return new Handover(oldLeader, epoch, after, survivorChanges);
    }

    private static List<String> filesIn(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private boolean follows(int id, int leaderId, int epoch) {
        Optional<DescribeQuorumPartitionResponse> view = cluster.describePartition(id);
        return view.isPresent() && view.get().getLeaderId() == leaderId && view.get().getLeaderEpoch() == epoch;
    }

    private static QuorumReport.Replica voter(QuorumReport report, int id) {
        return report.voters().stream().filter(v -> v.nodeId() == id).findFirst()
                .orElseThrow(() -> new AssertionError("node " + id + " is not among the voters of " + report));
    }

    private static List<String> lines(List<DumpedRecord> records) {
        return records.stream().map(DumpedRecord::line).toList();
    }

    private void assertOneLeaderPerEpoch() {
        cluster.leadersByEpoch().forEach((e, leaders) -> assertEquals(1, leaders.size(), "leaders of epoch " + e));
    }
}
