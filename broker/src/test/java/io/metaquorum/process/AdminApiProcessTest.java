package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import io.metaquorum.net.HostPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The admin API end to end through the real binaries: three {@code bin/mq-server}
 * controllers, brokers registered through the broker RPCs, and {@code bin/mq-topics}
 * against any node (writes are forwarded to the active controller).
 */
class AdminApiProcessTest {
    private static final Pattern TOPIC_LINE = Pattern.compile("Topic: (\\S+)\\tTopicId: (\\S+)\\tPartitionCount: (\\d+)");

    private ControllerCluster cluster;
    private RegisteredBrokers brokers;

    @AfterEach
    void stopEverything() {
        if (brokers != null) {
            brokers.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private String bootstrap(int nodeId) {
        return cluster.node(nodeId).address().toString();
    }

    private void startWithBrokers(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of());
        cluster.awaitLeaderReport("a leader", report -> report.leaderId() > 0);
        List<HostPort> addresses = new ArrayList<>();
        ControllerCluster.NODE_IDS.forEach(id -> addresses.add(cluster.node(id).address()));
        brokers = new RegisteredBrokers(addresses);
        brokers.start(List.of(4, 5, 6));
        awaitTool("three unfenced brokers take a replication factor 3 topic", () -> cluster.runTool("mq-topics",
                "--bootstrap-server", bootstrap(1), "--create", "--topic", "probe", "--partitions", "1",
                "--replication-factor", "3", "--validate-only"));
    }

    private static void awaitTool(String what, java.util.function.Supplier<ToolRun> run) {
        long deadline = System.currentTimeMillis() + ControllerCluster.WAIT_MS;
        ToolRun last = null;
        while (System.currentTimeMillis() < deadline) {
            last = run.get();
            if (last.exitCode() == 0) {
                return;
            }
        }
        throw new AssertionError("not within " + ControllerCluster.WAIT_MS + " ms: " + what + "; last: " + last);
    }

    private Map<String, String> describeIds(int nodeId) {
        ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(nodeId), "--describe");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, String> ids = new TreeMap<>();
        Matcher m = TOPIC_LINE.matcher(run.out());
        while (m.find()) {
            ids.put(m.group(1), m.group(2));
        }
        return ids;
    }

    @Test
    void topicsCreatedThroughAnyNodeAreDescribedTheSameByEveryNodeAndErrorsNameTheirCode(TestInfo test) {
        startWithBrokers(test);
        int follower = ControllerCluster.NODE_IDS.stream()
                .filter(id -> id != cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId())
                .findFirst().orElseThrow();
        ToolRun created = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(follower), "--create",
                "--topic", "demo", "--partitions", "3", "--replication-factor", "3", "--config", "retention.ms=1000");
        assertEquals(0, created.exitCode(), created.err());
        assertTrue(created.out().contains("Created topic demo."), created.out());
        ToolRun again = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(follower), "--create",
                "--topic", "demo", "--partitions", "3", "--replication-factor", "3");
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("Error: TOPIC_ALREADY_EXISTS: Topic 'demo' already exists."), again.err());
        ToolRun tooMany = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(1), "--create",
                "--topic", "wide", "--partitions", "1", "--replication-factor", "4");
        assertTrue(tooMany.err().contains("Error: INVALID_REPLICATION_FACTOR:"), tooMany.err());
        String id = describeIds(1).get("demo");
        for (int node : ControllerCluster.NODE_IDS) {
            awaitTool("node " + node + " describes demo", () -> cluster.runTool("mq-topics", "--bootstrap-server",
                    bootstrap(node), "--describe", "--topic", "demo"));
            assertEquals(id, describeIds(node).get("demo"), "node " + node);
        }
        ToolRun described = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(follower), "--describe",
                "--topic", "demo");
        assertTrue(described.out().contains("PartitionCount: 3\tReplicationFactor: 3\tConfigs: retention.ms=1000"),
                described.out());
        assertEquals(3, described.out().lines().filter(l -> l.startsWith("\tTopic: demo\tPartition: ")).count());
    }

    @Test
    void everyAcknowledgedCreateSurvivesAKillOfTheActiveControllerWithItsId(TestInfo test) {
        startWithBrokers(test);
        Map<String, String> acknowledged = new TreeMap<>();
        int leader = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0).leaderId();
        int other = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();
        for (int i = 0; i < 20; i++) {
            if (i == 10) {
                cluster.killHard(leader);
            }
            ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(other), "--create",
                    "--topic", "t" + i, "--partitions", "2", "--replication-factor", "2");
            if (run.exitCode() == 0) {
                acknowledged.put("t" + i, "");
            }
        }
        assertTrue(acknowledged.size() >= 15, "creates after the kill succeed once a new leader is up: " + acknowledged);
        assertTrue(acknowledged.containsKey("t10") || acknowledged.containsKey("t11"),
                "a create right after the kill succeeds (the client retries until a new leader is up)");
        cluster.restart(leader);
        Map<String, String> ids = describeIds(other);
        for (String name : acknowledged.keySet()) {
            assertTrue(ids.containsKey(name), name + " was acknowledged and must exist: " + ids);
        }
        awaitTool("the restarted node describes every topic", () -> {
            ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(leader), "--list");
            return run.out().lines().count() >= ids.size() ? run : new ToolRun(1, run.out(), run.err());
        });
        assertEquals(ids, describeIds(leader), "the same topics with the same ids on the restarted node");
    }
}
