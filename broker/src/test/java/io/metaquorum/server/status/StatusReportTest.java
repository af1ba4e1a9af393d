package io.metaquorum.server.status;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.InsecureChannelCredentials;
import io.metaquorum.metadata.image.MetadataDelta;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.protocol.BrokerEndpoint;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.PartitionRecord;
import io.metaquorum.protocol.RegisterBrokerRecord;
import io.metaquorum.protocol.TopicRecord;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.RaftStatus;
import io.metaquorum.raft.RoleName;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The status page's JSON from one node's state: its raft status, the brokers and counts of its
 * image, the leaders it saw and its commit latency. The leader's own view is the process
 * test's (StatusPageProcessTest); here no controller is configured, so the report says why
 * it has none.
 */
class StatusReportTest {
    private static final long NOW_MS = 1_700_000_010_500L;
    private final StatusReport.StatusHistory history = StatusReport.StatusHistory.empty();
    private final LeaderQuorumView noControllers = new LeaderQuorumView(Map.of(), InsecureChannelCredentials.create(),
            1_000);

    @AfterEach
    void close() {
        noControllers.close();
    }

    private static MetadataImage image() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        Uuid topicId = Uuid.newBuilder().setMostSignificantBits(7).setLeastSignificantBits(9).build();
        List<MetadataRecord> records = List.of(
                MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(4)
                        .setIncarnationId(topicId).setBrokerEpoch(1).setRack("rack-\"a\"")
                        .addEndpoints(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1").setPort(19094))
                        .setFenced(false)).build(),
                MetadataRecord.newBuilder().setRegisterBroker(RegisterBrokerRecord.newBuilder().setBrokerId(5)
                        .setIncarnationId(topicId).setBrokerEpoch(2).setFenced(true)).build(),
                MetadataRecord.newBuilder().setTopic(TopicRecord.newBuilder().setName("orders").setTopicId(topicId))
                        .build(),
                MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(topicId)
                        .setPartition(0).addReplicas(4).addIsr(4).setLeader(4)).build(),
                MetadataRecord.newBuilder().setPartition(PartitionRecord.newBuilder().setTopicId(topicId)
                        .setPartition(1).addReplicas(5).addIsr(5).setLeader(-1)).build());
        long offset = 0;
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, 1);
        }
        return delta.apply();
    }

    private String json(RaftStatus status) {
        MetadataImage image = image();
        StatusReport report = new StatusReport(new StatusReport.Identity(4, "c-1", List.of("broker")), () -> status,
                () -> image, noControllers, history, () -> NOW_MS);
        return report.json();
    }

    private static void assertHas(String json, String part) {
        assertTrue(json.contains(part), "expected " + part + " in " + json);
    }

    @Test
    void aNodeReportsItsRaftStateItsImageAndWhyTheLeadersViewIsMissing() {
        String json = json(new RaftStatus(4, RoleName.FOLLOWER, 3, 2, -1, 40, 0, 41, 41, 39));

        assertHas(json, "{\"nodeId\": 4, \"clusterId\": \"c-1\", \"roles\": [\"broker\"], \"nowMs\": " + NOW_MS);
        assertHas(json, "\"raft\": {\"role\": \"FOLLOWER\", \"epoch\": 3, \"leaderId\": 2, \"highWatermark\": 40, "
                + "\"logEndOffset\": 41, \"appliedOffset\": 39}");
        assertHas(json, "\"quorum\": null, \"quorumProblem\": \"the leader, node 2, is not among the configured "
                + "controllers\"");
        assertHas(json, "\"image\": {\"offset\": 4, \"topics\": 1, \"partitions\": 2, \"offlinePartitions\": 1, "
                + "\"activeBrokers\": 1, \"fencedBrokers\": 1}");
        assertHas(json, "\"brokers\": [{\"brokerId\": 4, \"endpoint\": \"127.0.0.1:19094\", \"rack\": \"rack-\\\"a\\\"\", "
                + "\"brokerEpoch\": 1, \"state\": \"unfenced\"}, {\"brokerId\": 5, \"endpoint\": \"\", \"rack\": \"\", "
                + "\"brokerEpoch\": 2, \"state\": \"fenced\"}]");
        assertHas(json, "\"commitLatency\": {\"measuredHere\": false, \"windowSeconds\": 120, \"seconds\": []}");
    }

    @Test
    void theLeaderShowsItsCommitLatencyAndTheLeadersItSaw() {
        history.leaders().record(NOW_MS - 5_000, 3, 4);
        history.commitLatency().record(NOW_MS - 1_000, 2);
        history.commitLatency().record(NOW_MS - 1_000, 5);

        String json = json(new RaftStatus(4, RoleName.LEADER, 3, 4, 4, 40, 0, 41, 41, 39));

        assertHas(json, "\"leaderChanges\": [{\"atMs\": " + (NOW_MS - 5_000) + ", \"epoch\": 3, \"leaderId\": 4}]");
        assertHas(json, "\"commitLatency\": {\"measuredHere\": true, \"windowSeconds\": 120, \"seconds\": [{\"atMs\": "
                + 1_700_000_009_000L + ", \"count\": 2, \"meanMs\": 3.500, \"maxMs\": 5}]}");
    }

    @Test
    void beforeRaftIsBuiltTheReportSaysSo() {
        String json = json(null);

        assertHas(json, "\"raft\": null, \"quorum\": null, \"quorumProblem\": \"raft is starting\"");
    }
}
