package io.metaquorum.metadata.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.DescribeQuorumResponse;
import io.metaquorum.protocol.DescribeQuorumTopicResponse;
import io.metaquorum.protocol.PendingVoterChange;
import io.metaquorum.protocol.ReplicaKey;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import org.junit.jupiter.api.Test;

class QuorumReportFormatTest {
    private static final long NOW_MS = 1_700_000_010_000L;
    private static final Uuid DIRECTORY = TopicIds.uuid(0x5EED, 1);

    private static ReplicaState replica(int id, long logEndOffset, long lastFetchMs, long lastCaughtUpMs) {
        return ReplicaState.newBuilder().setReplicaId(id).setLogEndOffset(logEndOffset)
                .setLastFetchTimestampMs(lastFetchMs).setLastCaughtUpTimestampMs(lastCaughtUpMs).build();
    }

    private static QuorumReport report() {
        DescribeQuorumPartitionResponse partition = DescribeQuorumPartitionResponse.newBuilder()
                .setLeaderId(1).setLeaderEpoch(3).setHighWatermark(1234).setNowMs(NOW_MS)
                .addCurrentVoters(replica(1, 1234, NOW_MS - 12, NOW_MS - 12).toBuilder()
                        .setReplicaDirectoryId(DIRECTORY).build())
                .addCurrentVoters(replica(2, 1230, NOW_MS - 40, NOW_MS - 250))
                .addCurrentVoters(replica(3, 1234, NOW_MS - 7, NOW_MS - 7))
                .addObservers(replica(4, 1200, NOW_MS - 30, -1))
                .build();
        return QuorumReport.from(DescribeQuorumResponse.newBuilder().setClusterId("MkU3OEVBNTcwNTJENDM2Qk")
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(partition))
                .build());
    }

    @Test
    void jsonIsTheShapeOfProductMd() {
        assertEquals("{\"clusterId\": \"MkU3OEVBNTcwNTJENDM2Qk\", \"leaderId\": 1, \"leaderEpoch\": 3, "
                + "\"highWatermark\": 1234, \"maxFollowerLag\": 4, \"maxFollowerLagMs\": 250, \"voters\": ["
                + "{\"nodeId\": 1, \"logEndOffset\": 1234, \"lag\": 0, \"lastFetchMs\": 12, \"lastCaughtUpMs\": 12, "
                + "\"directoryId\": \"" + TopicIds.toBase64(DIRECTORY) + "\"}, "
                + "{\"nodeId\": 2, \"logEndOffset\": 1230, \"lag\": 4, \"lastFetchMs\": 40, \"lastCaughtUpMs\": 250, "
                + "\"directoryId\": \"\"}, "
                + "{\"nodeId\": 3, \"logEndOffset\": 1234, \"lag\": 0, \"lastFetchMs\": 7, \"lastCaughtUpMs\": 7, "
                + "\"directoryId\": \"\"}], "
                + "\"observers\": ["
                + "{\"nodeId\": 4, \"logEndOffset\": 1200, \"lag\": 34, \"lastFetchMs\": 30, \"lastCaughtUpMs\": -1, "
                + "\"directoryId\": \"\"}], \"pendingVoterChange\": null}",
                QuorumReportFormat.json(report()));
    }

    /** The leader's VotersRecord at 1240 adds node 4 (directory {@link #DIRECTORY}) and is not committed. */
    private static QuorumReport reportWithPendingChange() {
        QuorumReport base = report();
        DescribeQuorumPartitionResponse partition = DescribeQuorumPartitionResponse.newBuilder()
                .setLeaderId(1).setLeaderEpoch(3).setHighWatermark(1234).setNowMs(NOW_MS)
                .addCurrentVoters(replica(1, 1241, NOW_MS - 12, NOW_MS - 12))
                .setPendingVoterChange(PendingVoterChange.newBuilder().setOffset(1240)
                        .addVoters(key(1, TopicIds.ZERO)).addVoters(key(4, DIRECTORY)).addAdded(key(4, DIRECTORY)))
                .build();
        QuorumReport report = QuorumReport.from(DescribeQuorumResponse.newBuilder().setClusterId(base.clusterId())
                .addTopics(DescribeQuorumTopicResponse.newBuilder().setTopicId(TopicIds.METADATA_TOPIC_ID)
                        .addPartitions(partition))
                .build());
        return report;
    }

    private static ReplicaKey key(int id, Uuid directoryId) {
        return ReplicaKey.newBuilder().setReplicaId(id).setDirectoryId(directoryId).build();
    }

    @Test
    void jsonEndsWithThePendingVoterChange() {
        String json = QuorumReportFormat.json(reportWithPendingChange());
        assertTrue(json.endsWith(", \"observers\": [], \"pendingVoterChange\": {\"offset\": 1240, \"voters\": ["
                + "{\"nodeId\": 1, \"directoryId\": \"\"}, {\"nodeId\": 4, \"directoryId\": \""
                + TopicIds.toBase64(DIRECTORY) + "\"}], \"added\": [{\"nodeId\": 4, \"directoryId\": \""
                + TopicIds.toBase64(DIRECTORY) + "\"}], \"removed\": []}}"), json);
        assertTrue(json.startsWith("{\"clusterId\": \"MkU3OEVBNTcwNTJENDM2Qk\", \"leaderId\": 1, "), json);
    }

    @Test
    void statusShowsAPendingVoterChangeOnALineOfItsOwnAfterTheOthers() {
        String status = QuorumReportFormat.status(reportWithPendingChange());
        assertTrue(status.endsWith("ObserverLags:           []" + System.lineSeparator()
                + "PendingVoterChange:     at offset 1240: voters [1,4] (adds 4)" + System.lineSeparator()), status);
        assertFalse(QuorumReportFormat.status(report()).contains("PendingVoterChange"));
    }

    @Test
    void statusIsKafkasDescribeStatus() {
        String expected = String.join(System.lineSeparator(),
                "ClusterId:              MkU3OEVBNTcwNTJENDM2Qk",
                "LeaderId:               1",
                "LeaderEpoch:            3",
                "HighWatermark:          1234",
                "MaxFollowerLag:         4",
                "MaxFollowerLagTimeMs:   250",
                "CurrentVoters:          [1,2,3]",
                "CurrentObservers:       [4]",
                "ObserverLags:           [4: lag 34, caught up never]", "");
        assertEquals(expected, QuorumReportFormat.status(report()));
    }

    @Test
    void replicationIsATableWithTheLeaderFirst() {
        String expected = String.join(System.lineSeparator(),
                "NodeId  LogEndOffset  Lag  LastFetchTimestamp  LastCaughtUpTimestamp  Status",
                "1       1234          0    1700000009988       1700000009988          Leader",
                "2       1230          4    1700000009960       1700000009750          Follower",
                "3       1234          0    1700000009993       1700000009993          Follower",
                "4       1200          34   1700000009970       -1                     Observer", "");
        assertEquals(expected, QuorumReportFormat.replication(report()));
    }

    @Test
    void jsonStringsAreEscaped() {
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\"", QuorumReportFormat.jsonString("a\"b\\c\n\u0001"));
    }
}
