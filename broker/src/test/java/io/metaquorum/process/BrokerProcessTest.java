package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.process.MetaquorumScripts.ToolRun;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Brokers end to end through the real binaries: three {@code bin/mq-server} controllers and
 * three {@code bin/mq-server} brokers ({@code process.roles=broker}, listening on port 0),
 * driven with {@code bin/mq-topics} and {@code bin/mq-metadata brokers} against any node.
 */
class BrokerProcessTest {
    private static final List<Integer> BROKERS = List.of(4, 5, 6);
    private static final Map<String, String> FAST_SESSIONS = Map.of("broker.heartbeat.interval.ms", "500",
            "broker.session.timeout.ms", "3000");
    private static final Pattern PARTITION_LINE = Pattern.compile(
            "\\tTopic: (\\S+)\\tPartition: (\\d+)\\tLeader: (-?\\d+)\\tReplicas: ([\\d,]+)\\tIsr: ([\\d,]*)");
    private static final Pattern BROKER_LINE = Pattern.compile("\\tBroker: (\\d+)\\t.*\\tState: (\\w+)");
    private static final Pattern ENDPOINT = Pattern.compile("\\tBroker: (\\d+)\\tEndpoint: (\\S+)\\t");

    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** One partition as {@code mq-topics --describe} prints it. */
    record Described(String topic, int partition, int leader, List<Integer> replicas, List<Integer> isr) {
        boolean healthy() {
            return leader == replicas.get(0) && isr.equals(replicas);
        }
    }

    private String bootstrap(int nodeId) {
        return cluster.node(nodeId).address().toString();
    }

    private void startCluster(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), FAST_SESSIONS, BROKERS.size());
        awaitBrokerStates("three unfenced brokers", states -> states.values().stream()
                .filter("unfenced"::equals).count() == BROKERS.size());
    }

    private Map<Integer, String> brokerStates(int nodeId) {
        ToolRun run = cluster.runTool("mq-metadata", "brokers", "--bootstrap-server", bootstrap(nodeId));
        Map<Integer, String> states = new TreeMap<>();
        Matcher m = BROKER_LINE.matcher(run.out());
        while (m.find()) {
            states.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        return states;
    }

    /** Each broker's endpoint as the controllers registered it, asked through node {@code nodeId}. */
    private Map<Integer, String> registeredEndpoints(int nodeId) {
        ToolRun run = cluster.runTool("mq-metadata", "brokers", "--bootstrap-server", bootstrap(nodeId));
        Map<Integer, String> endpoints = new TreeMap<>();
        Matcher m = ENDPOINT.matcher(run.out());
        while (m.find()) {
            endpoints.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        return endpoints;
    }

    /** Every broker registered the port it reported in its server.listeners, not the port 0 it was given. */
    private void assertBrokersRegisteredTheirBoundPorts() {
        Map<Integer, String> expected = new TreeMap<>();
        BROKERS.forEach(id -> expected.put(id, cluster.node(id).address().toString()));
        assertEquals(expected, registeredEndpoints(1));
        BROKERS.forEach(id -> assertNotEquals(0, cluster.node(id).address().port(), "broker " + id));
    }

    private void awaitBrokerStates(String what, java.util.function.Predicate<Map<Integer, String>> condition) {
        cluster.await(what, () -> Optional.of(brokerStates(1)).filter(condition));
    }

    private List<Described> describe(int nodeId, String topic) {
        ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(nodeId), "--describe",
                "--topic", topic);
        List<Described> partitions = new ArrayList<>();
        Matcher m = PARTITION_LINE.matcher(run.out());
        while (m.find()) {
            partitions.add(new Described(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    ids(m.group(4)), ids(m.group(5))));
        }
        return partitions;
    }

    private static List<Integer> ids(String list) {
        return list.isEmpty() ? List.of()
                : java.util.Arrays.stream(list.split(",")).map(Integer::parseInt).collect(Collectors.toList());
    }

    private List<Described> awaitDescribed(String what, int nodeId, String topic,
                                           java.util.function.Predicate<List<Described>> condition) {
        return cluster.await(what, () -> Optional.of(describe(nodeId, topic))
                .filter(p -> !p.isEmpty() && condition.test(p)));
    }

    private void createDemo(int throughNode) {
        ToolRun created = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(throughNode), "--create",
                "--topic", "demo", "--partitions", "6", "--replication-factor", "3");
        assertEquals(0, created.exitCode(), created.err());
    }

    @Test
    void everyNodeDescribesTheTopicCreatedThroughABrokerWithLeadersAndFullIsrs(TestInfo test) {
        startCluster(test);
        assertBrokersRegisteredTheirBoundPorts();
        createDemo(4);
        List<Described> atController = awaitDescribed("demo at node 1", 1, "demo",
                p -> p.size() == 6 && p.stream().allMatch(Described::healthy));
        for (int node = 1; node <= 6; node++) {
            assertEquals(atController, awaitDescribed("demo at node " + node, node, "demo", p -> p.size() == 6),
                    "node " + node + " describes demo from its own image as the controller does");
        }
        for (int broker : BROKERS) {
            assertTrue(atController.stream().anyMatch(p -> p.leader() == broker), "broker " + broker
                    + " leads a partition (leaders spread): " + atController);
        }
    }

    @Test
    void aKilledBrokerIsFencedAndItsLeadershipsMoveThenComeBackWhenItReturns(TestInfo test) {
        startCluster(test);
        createDemo(1);
        awaitDescribed("demo healthy", 1, "demo", p -> p.size() == 6 && p.stream().allMatch(Described::healthy));
        cluster.killHard(4);
        awaitBrokerStates("broker 4 fenced after its session timed out", s -> "fenced".equals(s.get(4)));
        List<Described> moved = awaitDescribed("no partition led by 4, 4 out of every ISR", 5, "demo",
                p -> p.stream().noneMatch(d -> d.leader() == 4 || d.isr().contains(4)));
        assertTrue(moved.stream().allMatch(d -> d.leader() > 0 && d.isr().contains(d.leader())),
                "every partition has another in-sync leader: " + moved);
        cluster.restart(4);
        awaitBrokerStates("broker 4 unfenced again", s -> "unfenced".equals(s.get(4)));
        assertBrokersRegisteredTheirBoundPorts();
        awaitDescribed("preferred leaders back, full ISRs", 6, "demo",
                p -> p.size() == 6 && p.stream().allMatch(Described::healthy));
    }

    @Test
    void sigtermMovesTheBrokersLeadershipsAwayBeforeItExits(TestInfo test) {
        startCluster(test);
        createDemo(1);
        awaitDescribed("demo healthy", 1, "demo", p -> p.size() == 6 && p.stream().allMatch(Described::healthy));
        long mark = cluster.node(5).logMark();
        assertEquals(ControllerProcess.EXIT_SIGTERM, cluster.terminate(5), "exit status after SIGTERM");
        String log = cluster.node(5).logSince(mark);
        assertTrue(log.contains("broker state RUNNING -> PENDING_CONTROLLED_SHUTDOWN")
                && log.contains("PENDING_CONTROLLED_SHUTDOWN -> SHUT_DOWN"), log);
        assertFalse(Files.exists(cluster.node(5).listenersFile()), "a clean exit removes server.listeners");
        assertFalse(Files.exists(cluster.node(5).pidFile()), "and server.pid");
        // The controller answered "shut down" only once the moves were committed; node 1 may
        // replay them a fetch later than the leader, hence the wait.
        awaitDescribed("broker 5 leads nothing and is in no ISR", 1, "demo",
                p -> p.stream().noneMatch(d -> d.leader() == 5 || d.isr().contains(5)));
        assertEquals("fenced", brokerStates(1).get(5));
    }

    private Map<String, String> topicIds(int nodeId) {
        ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(nodeId), "--describe");
        Map<String, String> ids = new TreeMap<>();
        Matcher m = Pattern.compile("Topic: (\\S+)\\tTopicId: (\\S+)\\t").matcher(run.out());
        while (m.find()) {
            ids.put(m.group(1), m.group(2));
        }
        return ids;
    }

    @Test
    void killingAllSixNodesAfterAStreamOfAcknowledgedCreatesLosesNoTopicAndNoId(TestInfo test) {
        startCluster(test);
        List<String> acknowledged = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String name = "s" + i;
            ToolRun run = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap(1 + i % 6), "--create",
                    "--topic", name, "--partitions", "2", "--replication-factor", "3");
            assertEquals(0, run.exitCode(), run.err());
            acknowledged.add(name);
        }
        Map<String, String> before = topicIds(1);
        assertEquals(new java.util.TreeSet<>(acknowledged), before.keySet());
        for (int node = 6; node >= 1; node--) {
            cluster.killHard(node);
        }
        for (int node = 1; node <= 6; node++) {
            cluster.restart(node);
        }
        for (int node = 1; node <= 6; node++) {
            int id = node;
            Map<String, String> after = cluster.await("node " + id + " describes every topic again",
                    () -> Optional.of(topicIds(id)).filter(ids -> ids.size() >= before.size()));
            assertEquals(before, after, "node " + id + ": every acknowledged topic with the same id");
        }
    }

    @Test
    void combinedNodesAreControllersAndBrokersInOneProcess(TestInfo test) {
        cluster = ControllerCluster.startCombined(ProcessTestNames.of(test), FAST_SESSIONS);
        awaitBrokerStates("three unfenced brokers on the three combined nodes", states -> states.keySet()
                .equals(new java.util.TreeSet<>(List.of(1, 2, 3))) && states.values().stream()
                .allMatch("unfenced"::equals));
        createDemo(2);
        List<Described> demo = awaitDescribed("demo healthy on the combined nodes", 3, "demo",
                p -> p.size() == 6 && p.stream().allMatch(Described::healthy));
        assertTrue(demo.stream().allMatch(d -> List.of(1, 2, 3).containsAll(d.replicas())), demo.toString());
    }
}
