package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.process.DumpedLog.DumpedRecord;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.server.ConfigKeys;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Three {@code bin/mq-server} controller processes elect exactly one leader, and what the
 * leader appends is committed on all three with identical contents.
 */
class ElectionAndReplicationProcessTest {
    /** Committed records to wait for before comparing the logs. */
    private static final long COMMITTED_RECORDS_MIN = 50;

    private ControllerCluster cluster;

    @AfterEach
    void stopEveryProcess() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void threeControllersElectExactlyOneLeader(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of());

        Map<Integer, DescribeQuorumResponse> answers = cluster.await(
                "all three answer DescribeQuorum naming one leader in one epoch, and only that leader answers as one",
                this::agreedAnswers);

        DescribeQuorumPartitionResponse any = partition(answers.get(1));
        int leaderId = any.getLeaderId();
        int epoch = any.getLeaderEpoch();
        assertTrue(ControllerCluster.NODE_IDS.contains(leaderId), "leader " + leaderId);
        answers.forEach((id, answer) -> {
            assertEquals(cluster.clusterId(), answer.getClusterId(), "cluster id in node " + id + "'s answer");
            ErrorCode expected = id == leaderId ? ErrorCode.NONE : ErrorCode.NOT_LEADER_OR_FOLLOWER;
            assertEquals(expected, partition(answer).getErrorCode(), "node " + id + "'s answer");
        });
        DescribeQuorumPartitionResponse leader = partition(answers.get(leaderId));
        assertEquals(ControllerCluster.NODE_IDS,
                leader.getCurrentVotersList().stream().map(ReplicaState::getReplicaId).sorted().toList(), "voters");
        assertEquals(List.of(), leader.getObserversList(), "observers");
        assertEquals(Set.of(leaderId), cluster.leadersByEpoch().get(epoch),
                "nodes that logged becoming leader in epoch " + epoch);
        cluster.leadersByEpoch().forEach((e, leaders) -> assertEquals(1, leaders.size(), "leaders of epoch " + e));
    }

    /** Every node's answer, if all three answered and agree on one leader that alone answers as leader. */
    private Optional<Map<Integer, DescribeQuorumResponse>> agreedAnswers() {
        Map<Integer, DescribeQuorumResponse> answers = new TreeMap<>();
        for (int id : ControllerCluster.NODE_IDS) {
            Optional<DescribeQuorumResponse> answer = cluster.describe(id)
                    .filter(r -> r.getErrorCode() == ErrorCode.NONE && r.getTopicsCount() == 1
                            && r.getTopics(0).getPartitionsCount() == 1);
            if (answer.isEmpty()) {
                return Optional.empty();
            }
            answers.put(id, answer.get());
        }
        Set<Integer> leaders = answers.values().stream().map(a -> partition(a).getLeaderId()).collect(Collectors.toSet());
        Set<Integer> epochs = answers.values().stream().map(a -> partition(a).getLeaderEpoch())
                .collect(Collectors.toSet());
        List<Integer> answeringAsLeader = answers.entrySet().stream()
                .filter(e -> partition(e.getValue()).getErrorCode() == ErrorCode.NONE).map(Map.Entry::getKey).toList();
        boolean agreed = leaders.size() == 1 && epochs.size() == 1 && !leaders.contains(-1)
                && answeringAsLeader.equals(List.copyOf(leaders));
        return agreed ? Optional.of(answers) : Optional.empty();
    }

    private static DescribeQuorumPartitionResponse partition(DescribeQuorumResponse answer) {
        return answer.getTopics(0).getPartitions(0);
    }

    @Test
    void recordsAppendedByTheLeaderAreCommittedIdenticallyOnAllThree(TestInfo test) {
        // The leader appends a NoOpRecord whenever it was idle this long: a steady stream of appends.
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(ConfigKeys.IDLE_INTERVAL_MS, "20"));

        QuorumReport committed = cluster.awaitAllCaughtUp("the high watermark passes " + COMMITTED_RECORDS_MIN
                + " and every voter's log end reaches it", COMMITTED_RECORDS_MIN);
        long highWatermark = committed.highWatermark();

        Map<Integer, Integer> exitCodes = cluster.terminateAll();
        exitCodes.forEach((id, code) -> assertEquals(ControllerProcess.EXIT_SIGTERM, code, "exit status of node " + id));
        List<DumpedLog> logs = cluster.dump(ControllerCluster.NODE_IDS);

        List<DumpedRecord> reference = logs.get(0).below(highWatermark);
        assertEquals(LongStream.range(0, highWatermark).boxed().toList(),
                reference.stream().map(DumpedRecord::offset).toList(), "node 1 holds every committed offset");
        for (DumpedLog log : logs) {
            assertEquals(reference.stream().map(DumpedRecord::line).toList(),
                    log.below(highWatermark).stream().map(DumpedRecord::line).toList(),
                    "the committed prefix [0, " + highWatermark + ") of node " + log.nodeId() + " and node 1");
        }
        Set<String> types = reference.stream().map(DumpedRecord::type).collect(Collectors.toSet());
        assertTrue(types.containsAll(Set.of("LeaderChangeRecord", "FeatureLevelRecord", "NoOpRecord")),
                "record types committed: " + types);
    }
}
