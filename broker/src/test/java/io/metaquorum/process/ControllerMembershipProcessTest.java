package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.common.io.Directories;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.DescribeQuorumPartitionResponse;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.protocol.ReplicaState;
import io.metaquorum.protocol.Uuid;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.server.MetaProperties;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A controller's disk is lost, as an operator meets it (KIP-853): kill -9 of a follower
 * controller, its metadata directory deleted and formatted again with
 * {@code mq-storage format --no-initial-controllers}, the node started. It comes back with a new
 * directory id, so the leader tracks it as an observer while the voter set still names its old
 * directory. {@code mq-metadata remove-controller} takes the old voter out and
 * {@code mq-metadata add-controller --config} adds the node back with its new directory; it
 * then votes: with the leader killed, the two voters left elect a new one, and every topic
 * created before is still there.
 */
class ControllerMembershipProcessTest {
    private static final long CREATE_TIMEOUT_MS = 30_000;

    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Optional<ReplicaState> replica(List<ReplicaState> states, int id, Uuid directoryId) {
        return states.stream().filter(s -> s.getReplicaId() == id && s.getReplicaDirectoryId().equals(directoryId))
                .findFirst();
    }

    private DescribeQuorumPartitionResponse leaderView(String what,
                                                       Predicate<DescribeQuorumPartitionResponse> ok) {
        return cluster.await(what, () -> {
            for (int id : ControllerCluster.NODE_IDS) {
                Optional<DescribeQuorumPartitionResponse> view = cluster.describePartition(id)
                        .filter(p -> p.getErrorCode() == ErrorCode.NONE);
                if (view.isPresent()) {
                    return view.filter(ok);
                }
            }
            return Optional.empty();
        });
    }

    private void create(String name) {
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            List<CreatableTopicResult> results = client.createTopics(List.of(CreatableTopic.newBuilder().setName(name)
                    .setNumPartitions(1).setReplicationFactor(1).build()), false, CREATE_TIMEOUT_MS);
            assertEquals(ErrorCode.NONE, results.get(0).getErrorCode(), results.toString());
        }
    }

    private String bootstrap() {
        return cluster.addresses().stream().map(HostPort::toString).collect(Collectors.joining(","));
    }

    @Test
    void aWipedControllerIsAnObserverUntilRemovedAndAddedBackThenItVotes(TestInfo test) throws Exception {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 1);
        cluster.awaitUnfencedBrokers(1);
        create("before-the-wipe");
        int leader = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId();
        int wiped = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        Uuid oldDirectory = MetaProperties.read(cluster.node(wiped).metadataDir()).orElseThrow().directoryId();

        cluster.killHard(wiped);
        Directories.deleteRecursively(cluster.node(wiped).metadataDir());
        MetaquorumScripts.ToolRun format = cluster.runTool("mq-storage", "format", "--config",
                cluster.node(wiped).configFile().toString(), "--cluster-id", cluster.clusterId(),
                "--no-initial-controllers");
        assertEquals(0, format.exitCode(), format.err());
        Uuid newDirectory = MetaProperties.read(cluster.node(wiped).metadataDir()).orElseThrow().directoryId();
        cluster.restart(wiped);

        DescribeQuorumPartitionResponse observed = leaderView("node " + wiped + " observing with its new directory",
                p -> replica(p.getObserversList(), wiped, newDirectory).isPresent());
        assertTrue(replica(observed.getCurrentVotersList(), wiped, oldDirectory).isPresent(),
                "the voter set still names the lost directory: " + observed);

        MetaquorumScripts.ToolRun removed = cluster.runTool("mq-metadata", "remove-controller",
                "--bootstrap-controller", bootstrap(), "--controller-id", Integer.toString(wiped),
                "--controller-directory-id", TopicIds.toBase64(oldDirectory));
        assertEquals(0, removed.exitCode(), removed.err());
        assertTrue(removed.out().contains("Removed controller " + wiped), removed.out());
        MetaquorumScripts.ToolRun added = cluster.await("add-controller accepted once node " + wiped + " caught up",
                () -> Optional.of(cluster.runTool("mq-metadata", "add-controller", "--config",
                        cluster.node(wiped).configFile().toString())).filter(run -> run.exitCode() == 0));
        assertTrue(added.out().contains("Added controller " + wiped), added.out());

        leaderView("node " + wiped + " voting with its new directory, caught up",
                p -> replica(p.getCurrentVotersList(), wiped, newDirectory)
                        .filter(s -> s.getLogEndOffset() >= p.getHighWatermark()).isPresent()
                        && p.getCurrentVotersCount() == 3);
        create("after-the-add");

        int oldLeader = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId();
        cluster.killHard(oldLeader);
        int newLeader = cluster.awaitLeaderReport("a leader elected by the two voters left",
                r -> r.leaderId() > 0 && r.leaderId() != oldLeader).leaderId();
        assertTrue(newLeader != oldLeader);
        create("after-the-failover");
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            List<String> names = client.listTopics(CREATE_TIMEOUT_MS).stream().map(ListedTopic::getName).toList();
            assertTrue(names.containsAll(List.of("before-the-wipe", "after-the-add", "after-the-failover")),
                    names.toString());
        }
    }
}
