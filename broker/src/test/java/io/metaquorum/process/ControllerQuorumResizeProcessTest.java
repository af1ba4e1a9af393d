package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.net.HostPort;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ListedTopic;
import io.metaquorum.server.MetaProperties;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The quorum grows from three controllers to five and shrinks back to three while a client
 * creates topics without pause (KIP-853, as an operator resizes it): controllers 6 and 7 are
 * formatted with {@code --no-initial-controllers}, start as observers and join with
 * {@code mq-metadata add-controller}; then the active controller and another of the first three
 * leave with {@code remove-controller}, so the quorum ends as {one of the first three, 6, 7}
 * and the active controller is one no configuration lists. Every create that was acknowledged
 * is in the final topic list, no epoch had two leaders, and the quorum still commits.
 */
class ControllerQuorumResizeProcessTest {
    private static final long CREATE_TIMEOUT_MS = 30_000;
    private static final List<Integer> NEW_CONTROLLERS = List.of(6, 7);

    private ControllerCluster cluster;
    private Thread workload;
    private final AtomicBoolean stop = new AtomicBoolean();

    @AfterEach
    void stopEverything() throws InterruptedException {
        stop.set(true);
        if (workload != null) {
            workload.join(CREATE_TIMEOUT_MS * 2);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Creates topics w-0, w-1, … one at a time until stopped; records the acknowledged ones. */
    private Thread startWorkload(List<HostPort> bootstrap, Set<String> acknowledged, List<String> refusals,
                                 AtomicLong slowestMs) {
        Thread thread = new Thread(() -> {
            try (AdminClient client = AdminClient.connect(bootstrap)) {
                for (int i = 0; !stop.get(); i++) {
                    String name = "w-" + i;
                    long startNs = System.nanoTime();
                    try {
                        List<CreatableTopicResult> results = client.createTopics(List.of(CreatableTopic.newBuilder()
                                .setName(name).setNumPartitions(1).setReplicationFactor(1).build()), false,
                                CREATE_TIMEOUT_MS);
                        ErrorCode code = results.get(0).getErrorCode();
                        // ALREADY_EXISTS: a retry of a create whose first answer was lost found it committed.
                        if (code == ErrorCode.NONE || code == ErrorCode.TOPIC_ALREADY_EXISTS) {
                            synchronized (acknowledged) {
                                acknowledged.add(name);
                            }
                        } else {
                            synchronized (refusals) {
                                refusals.add(name + ": " + code);
                            }
                        }
                    } catch (RuntimeException e) {
                        synchronized (refusals) {
                            refusals.add(name + ": " + e);
                        }
                    }
                    slowestMs.accumulateAndGet((System.nanoTime() - startNs) / 1_000_000, Math::max);
                }
            }
        }, "create-workload");
        thread.start();
        return thread;
    }

    private void addController(int id) {
        cluster.startNewController(id, Map.of());
        MetaquorumScripts.ToolRun run = cluster.await("add-controller " + id + " accepted once it caught up",
                () -> Optional.of(cluster.runTool("mq-metadata", "add-controller", "--config",
                        cluster.node(id).configFile().toString())).filter(r -> r.exitCode() == 0));
        assertTrue(run.out().contains("Added controller " + id), run.out());
    }

    private void removeController(int id) {
        String directory = TopicIds.toBase64(MetaProperties.read(cluster.node(id).metadataDir()).orElseThrow()
                .directoryId());
        MetaquorumScripts.ToolRun run = cluster.await("remove-controller " + id + " accepted",
                () -> Optional.of(cluster.runTool("mq-metadata", "remove-controller", "--bootstrap-controller",
                        bootstrap(), "--controller-id", Integer.toString(id), "--controller-directory-id",
                        directory)).filter(r -> r.exitCode() == 0));
        assertTrue(run.out().contains("Removed controller " + id), run.out());
    }

    private String bootstrap() {
        return cluster.addresses().stream().map(HostPort::toString).collect(Collectors.joining(","));
    }

    private static Set<Integer> ids(List<QuorumReport.Replica> replicas) {
        return replicas.stream().map(QuorumReport.Replica::nodeId).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theQuorumGrowsToFiveAndShrinksToThreeUnderCreatesWithoutLosingAnAcknowledgedOne(TestInfo test)
            throws Exception {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of(), 1);
        cluster.awaitUnfencedBrokers(1);
        Set<String> acknowledged = new TreeSet<>();
        List<String> refusals = new ArrayList<>();
        AtomicLong slowestMs = new AtomicLong();
        workload = startWorkload(cluster.addresses(), acknowledged, refusals, slowestMs);

        NEW_CONTROLLERS.forEach(this::addController);
        cluster.awaitLeaderReport("five voters", r -> ids(r.voters()).equals(Set.of(1, 2, 3, 6, 7)));

        int leader = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId();
        int other = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        int kept = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader && id != other).findFirst()
                .orElseThrow();
        removeController(other);
        removeController(leader);
        QuorumReport three = cluster.awaitLeaderReport("three voters: " + kept + ", 6 and 7, and a leader among them",
                r -> ids(r.voters()).equals(Set.of(kept, 6, 7)) && r.leaderId() != leader && r.leaderId() > 0);
        long committedAfter = three.highWatermark();
        cluster.awaitLeaderReport("the three voters commit", r -> r.highWatermark() > committedAfter);

        stop.set(true);
        workload.join(CREATE_TIMEOUT_MS * 2);
        assertTrue(!acknowledged.isEmpty(), "the workload made progress: " + refusals);
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            Set<String> names = client.listTopics(CREATE_TIMEOUT_MS).stream().map(ListedTopic::getName)
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> lost = new TreeSet<>(acknowledged);
            lost.removeAll(names);
            assertEquals(Set.of(), lost, "acknowledged creates missing from the topic list");
        }
        cluster.leadersByEpoch().forEach((epoch, leaders) ->
                assertEquals(1, leaders.size(), "epoch " + epoch + " had leaders " + leaders));
        System.out.printf("%s: %d creates acknowledged, %d not (%s), slowest %d ms; leaders by epoch %s%n",
                test.getDisplayName(), acknowledged.size(), refusals.size(),
                refusals.stream().limit(5).toList(), slowestMs.get(), cluster.leadersByEpoch());
    }
}
