package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import io.metaquorum.server.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The status page (docs/metrics.md#status-page) of real nodes, rendered by a real browser:
 * three {@code bin/mq-server} controllers and two brokers with {@code metrics.listener} on,
 * headless Chromium loading {@code http://node/} and running the page's script. The rendered
 * DOM of a follower's page and of a broker's shows the leader, the three voters and the two
 * brokers as observers, the brokers unfenced and the topics created; the leader's page draws
 * its commit latency. After the leader stops (SIGTERM), another node's page shows the new
 * leader and both elections. Screenshots are left in {@code target/status-page/} and their
 * paths printed.
 *
 * <p>Needs Chromium ({@code apt-get install chromium}, or {@code MQ_CHROMIUM=/path}); without
 * it the test is skipped. The CI script installs it.
 */
class StatusPageProcessTest {
    private static final int TOPICS = 3;
    private static final long CREATE_TIMEOUT_MS = 30_000;
    private static final List<Integer> BROKERS = List.of(4, 5);
    private static final Pattern QUORUM_ROW =
            Pattern.compile("<tr data-node-id=\"(\\d+)\"><td>\\d+</td><td[^>]*>(leader|voter|observer)</td>");
    private static final Pattern BROKER_ROW =
            Pattern.compile("<tr data-broker-id=\"(\\d+)\"><td>\\d+</td><td[^>]*>(fenced|unfenced)</td>");

    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What the page showed once its script ran. */
    record RenderedPage(String dom) {
        boolean rendered() {
            return dom.contains("data-rendered=\"true\"");
        }

        String text(String id) {
            Matcher m = Pattern.compile("id=\"" + id + "\"[^>]*>([^<]*)<").matcher(dom);
            return m.find() ? m.group(1) : "";
        }

        Map<Integer, String> rows(Pattern row) {
            Map<Integer, String> rows = new TreeMap<>();
            Matcher m = row.matcher(dom);
            while (m.find()) {
                rows.put(Integer.parseInt(m.group(1)), m.group(2));
            }
            return rows;
        }
    }

    private String url(int nodeId) {
        return "http://" + cluster.metricsAddress(nodeId) + "/";
    }

    /** Loads node {@code nodeId}'s page until it shows what {@code shows} asks; returns that rendering. */
    private RenderedPage awaitPage(HeadlessChromium browser, int nodeId, String what,
                                   Predicate<RenderedPage> shows) {
        return cluster.await("node " + nodeId + "'s status page shows " + what,
                () -> Optional.of(new RenderedPage(browser.dumpDom(url(nodeId))))
                        .filter(RenderedPage::rendered).filter(shows));
    }

    private static Map<Integer, String> expectedQuorum(int leader) {
        Map<Integer, String> roles = new TreeMap<>();
        for (int id : ControllerCluster.NODE_IDS) {
            roles.put(id, id == leader ? "leader" : "voter");
        }
        BROKERS.forEach(id -> roles.put(id, "observer"));
        return roles;
    }

    @Test
    void aHeadlessBrowserRendersTheLiveQuorumBrokersAndAFailover(TestInfo test) throws Exception {
        Optional<HeadlessChromium> found = HeadlessChromium.find();
        assumeTrue(found.isPresent(), "no chromium on the PATH (apt-get install chromium, or set MQ_CHROMIUM)");
        HeadlessChromium browser = found.get();
        String name = ProcessTestNames.of(test);
        cluster = ControllerCluster.start(name, Map.of("metrics.listener", "127.0.0.1:0",
                "broker.heartbeat.interval.ms", "500", "broker.session.timeout.ms", "3000"), BROKERS.size());
        QuorumReport report = cluster.awaitLeaderReport("a leader with both brokers as observers",
                r -> r.observers().size() == BROKERS.size());
        int leader = report.leaderId();
        cluster.awaitUnfencedBrokers(BROKERS.size());
        createTopics();
        int follower = ControllerCluster.NODE_IDS.stream().filter(id -> id != leader).findFirst().orElseThrow();

        RenderedPage followerPage = awaitPage(browser, follower, "the quorum, both brokers unfenced and the topics",
                page -> page.rows(QUORUM_ROW).equals(expectedQuorum(leader))
                        && page.rows(BROKER_ROW).equals(Map.of(4, "unfenced", 5, "unfenced"))
                        && page.dom().contains("<b>" + TOPICS + "</b><span>topics</span>"));
        assertEquals(Integer.toString(leader), followerPage.text("leader-id"));
        for (int id : ControllerCluster.NODE_IDS) {
            String directory = TopicIds.toBase64(MetaProperties.read(cluster.node(id).metadataDir()).orElseThrow()
                    .directoryId());
            assertTrue(followerPage.dom().contains("title=\"" + directory + "\""), "voter " + id + "'s directory id "
                    + directory + " on the page");
        }
        assertEquals(Integer.toString(follower), followerPage.text("node-id"));
        assertEquals("controller", followerPage.text("node-roles"));
        assertTrue(followerPage.text("chart-note").startsWith("Commits are timed on the leader, node " + leader),
                followerPage.text("chart-note"));

        RenderedPage leaderPage = awaitPage(browser, leader, "its commit latency drawn",
                page -> page.dom().contains("id=\"mean-line\""));
        assertTrue(leaderPage.text("chart-note").startsWith("Mean (blue) and max (orange)"),
                leaderPage.text("chart-note"));
        Path screenshots = Path.of("target", "status-page", name);
        screenshot(browser, leader, screenshots.resolve("leader-node-" + leader + ".png"));

        assertEquals(ControllerProcess.EXIT_SIGTERM, cluster.terminate(leader));
        int broker = BROKERS.get(0);
        RenderedPage afterFailover = awaitPage(browser, broker, "a new leader and both elections",
                page -> !page.text("leader-id").equals(Integer.toString(leader))
                        && page.dom().split("<tr><td>", -1).length - 1 >= 2
                        && page.rows(QUORUM_ROW).getOrDefault(leader, "").equals("voter"));
        int newLeader = Integer.parseInt(afterFailover.text("leader-id"));
        assertTrue(Set.copyOf(ControllerCluster.NODE_IDS).contains(newLeader) && newLeader != leader,
                "new leader " + newLeader);
        assertEquals("broker", afterFailover.text("node-roles"));
        screenshot(browser, broker, screenshots.resolve("broker-" + broker + "-after-failover.png"));
    }

    private void screenshot(HeadlessChromium browser, int nodeId, Path png) throws Exception {
        browser.screenshot(url(nodeId), png, 1280, 1000);
        byte[] bytes = Files.readAllBytes(png);
        assertTrue(bytes.length > 10_000 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G',
                png + " is not a PNG of the page: " + bytes.length + " bytes");
        System.out.println("status page of node " + nodeId + ": " + png.toAbsolutePath());
    }

    private void createTopics() {
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            for (int i = 0; i < TOPICS; i++) {
                CreatableTopic topic = CreatableTopic.newBuilder().setName("status-" + i).setNumPartitions(2)
                        .setReplicationFactor(2).build();
                List<CreatableTopicResult> results = client.createTopics(List.of(topic), false, CREATE_TIMEOUT_MS);
                assertEquals(ErrorCode.NONE, results.get(0).getErrorCode(), results.toString());
            }
        }
    }
}
