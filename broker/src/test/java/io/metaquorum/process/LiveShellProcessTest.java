package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.tool.QuorumReport;
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
 * {@code bin/mq-metadata shell --bootstrap-controller} against three running {@code bin/mq-server}
 * controllers: the live shell, a short-lived anonymous observer, shows what
 * {@code bin/mq-topics --describe} shows, and leaves no observer behind in the quorum.
 */
class LiveShellProcessTest {
    private static final Pattern DESCRIBED_TOPIC = Pattern.compile("Topic: demo\\tTopicId: (\\S+)\\t");
    private static final Pattern DESCRIBED_PARTITION = Pattern.compile(
            "\\tTopic: demo\\tPartition: (\\d+)\\tLeader: (-?\\d+)\\tReplicas: ([\\d,]+)\\tIsr: ([\\d,]*)");
    private static final Pattern SHELL_PARTITION = Pattern.compile("topic: demo\\ntopicId: (\\S+)\\npartition: (\\d+)\\n"
            + "leader: (-?\\d+)\\nleaderEpoch: \\d+\\npartitionEpoch: \\d+\\nreplicas: ([\\d,]+)\\nisr: ([\\d,]*)");

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

    @Test
    void theLiveShellShowsWhatDescribeShows(TestInfo test) {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of());
        cluster.awaitLeaderReport("a leader", report -> report.leaderId() > 0);
        List<HostPort> addresses = new ArrayList<>();
        ControllerCluster.NODE_IDS.forEach(id -> addresses.add(cluster.node(id).address()));
        brokers = new RegisteredBrokers(addresses);
        brokers.start(List.of(4, 5, 6));
        String bootstrap = cluster.node(2).address().toString();
        awaitCreated(bootstrap);
        ToolRun describe = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap, "--describe", "--topic", "demo");
        assertEquals(0, describe.exitCode(), describe.err());
        Matcher topic = DESCRIBED_TOPIC.matcher(describe.out());
        assertTrue(topic.find(), describe.out());
        Map<Integer, String> described = new TreeMap<>();
        Matcher partition = DESCRIBED_PARTITION.matcher(describe.out());
        while (partition.find()) {
            described.put(Integer.parseInt(partition.group(1)), partition.group(2) + " " + partition.group(3) + " "
                    + partition.group(4));
        }
        assertEquals(3, described.size(), describe.out());

        ToolRun shell = cluster.runTool("mq-metadata", "shell", "--bootstrap-controller", bootstrap,
                "--command", "cat /topics/demo/[0-9]*");
        assertEquals(0, shell.exitCode(), shell.err());
        Map<Integer, String> shown = new TreeMap<>();
        Matcher cat = SHELL_PARTITION.matcher(shell.out());
        while (cat.find()) {
            assertEquals(topic.group(1), cat.group(1), shell.out());
            shown.put(Integer.parseInt(cat.group(2)), cat.group(3) + " " + cat.group(4) + " " + cat.group(5));
        }
        assertEquals(described, shown, shell.out());
        ToolRun brokersShown = cluster.runTool("mq-metadata", "shell", "--bootstrap-controller", bootstrap,
                "--command", "ls /brokers");
        assertEquals("4\n5\n6\n", brokersShown.out(), brokersShown.err());

        QuorumReport report = cluster.awaitLeaderReport("a leader", r -> r.leaderId() > 0);
        assertTrue(report.observers().stream().noneMatch(o -> o.nodeId() < 0), "the anonymous fetcher is no observer: "
                + report.observers());
    }

    private void awaitCreated(String bootstrap) {
        long deadline = System.currentTimeMillis() + ControllerCluster.WAIT_MS;
        ToolRun last = null;
        while (System.currentTimeMillis() < deadline) {
            last = cluster.runTool("mq-topics", "--bootstrap-server", bootstrap, "--create", "--topic", "demo",
                    "--partitions", "3", "--replication-factor", "3", "--if-not-exists");
            if (last.exitCode() == 0) {
                return;
            }
        }
        throw new AssertionError("demo not created within " + ControllerCluster.WAIT_MS + " ms; last: " + last);
    }
}
