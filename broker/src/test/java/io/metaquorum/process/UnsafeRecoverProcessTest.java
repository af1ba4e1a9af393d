package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.server.MetaProperties;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Two of three controllers lost for good, as an operator meets it: kill -9 of two controllers
 * that never come back. The survivor alone is no majority, so nothing commits; stopped, it
 * gets {@code mq-metadata unsafe-recover --voters} naming itself alone, and started again it
 * leads a quorum of one, in a later epoch, with every topic it held, and takes new writes.
 */
class UnsafeRecoverProcessTest {
    private static final long CREATE_TIMEOUT_MS = 30_000;

    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void create(String name) {
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            List<CreatableTopicResult> results = client.createTopics(List.of(CreatableTopic.newBuilder().setName(name)
                    .setNumPartitions(1).setReplicationFactor(1).build()), false, CREATE_TIMEOUT_MS);
            assertEquals(ErrorCode.NONE, results.get(0).getErrorCode(), results.toString());
        }
    }

    private List<String> topicNames() {
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            return client.listTopics(CREATE_TIMEOUT_MS).stream().map(ListedTopic::getName).toList();
        }
    }

    private MetaquorumScripts.ToolRun unsafeRecover(int node, String voters, String... more) {
        String[] args = new String[5 + more.length];
        args[0] = "unsafe-recover";
        args[1] = "--config";
        args[2] = cluster.node(node).configFile().toString();
        args[3] = "--voters";
        args[4] = voters;
        System.arraycopy(more, 0, args, 5, more.length);
        return cluster.runTool("mq-metadata", args);
    }

    @Test
    void aSurvivorOfALostMajorityLeadsAloneWithItsTopicsAfterUnsafeRecover(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 1);
        cluster.awaitUnfencedBrokers(1);
        create("before-the-loss-1");
        create("before-the-loss-2");
        QuorumReport before = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0);
        cluster.awaitAllCaughtUp("every voter holds both topics", before.highWatermark());
        int survivor = ControllerCluster.NODE_IDS.stream().filter(id -> id != before.leaderId()).findFirst()
                .orElseThrow();
        ControllerCluster.NODE_IDS.stream().filter(id -> id != survivor).forEach(cluster::killHard);
        String self = survivor + "@" + cluster.node(survivor).configuredListener() + ":" + TopicIds.toBase64(
                MetaProperties.read(cluster.node(survivor).metadataDir()).orElseThrow().directoryId());

        MetaquorumScripts.ToolRun whileRunning = unsafeRecover(survivor, self, "--i-understand-data-may-be-lost");
        assertEquals(1, whileRunning.exitCode(), whileRunning.out() + whileRunning.err());
        assertTrue(whileRunning.err().contains("controller " + survivor + " is running"), whileRunning.err());

        cluster.killHard(survivor);
        MetaquorumScripts.ToolRun dryRun = unsafeRecover(survivor, self);
        assertEquals(3, dryRun.exitCode(), dryRun.out() + dryRun.err());
        assertTrue(dryRun.out().contains("Nothing changed."), dryRun.out());
        MetaquorumScripts.ToolRun recovered = unsafeRecover(survivor, self, "--i-understand-data-may-be-lost");
        assertEquals(0, recovered.exitCode(), recovered.out() + recovered.err());
        assertTrue(recovered.out().contains("Done: appended the VotersRecord"), recovered.out());

        cluster.restart(survivor);
        QuorumReport after = cluster.awaitLeaderReport("node " + survivor + " leading a quorum of itself",
                r -> r.leaderId() == survivor && r.voters().size() == 1 && r.pendingVoterChange().isEmpty());
        assertTrue(after.leaderEpoch() > before.leaderEpoch() + 1, "a new epoch above the recovery's: " + after);
        MetaquorumScripts.ToolRun quorum = cluster.runTool("mq-metadata", "quorum", "--bootstrap-controller",
                cluster.node(survivor).address().toString(), "--json");
        assertEquals(0, quorum.exitCode(), quorum.err());
        assertTrue(quorum.out().strip().endsWith("\"pendingVoterChange\": null}"), "committed: " + quorum.out());
        assertTrue(topicNames().containsAll(List.of("before-the-loss-1", "before-the-loss-2")),
                topicNames().toString());
        cluster.awaitUnfencedBrokers(1);
        create("after-the-recovery");
        assertTrue(topicNames().contains("after-the-recovery"), topicNames().toString());
    }
}
