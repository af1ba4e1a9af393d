package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.client.AdminClient;
import io.metaquorum.protocol.CreatableTopic;
import io.metaquorum.protocol.CreatableTopicResult;
import io.metaquorum.protocol.ErrorCode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The metrics endpoint of real nodes (docs/metrics.md): three {@code bin/mq-server}
 * controllers and one broker with {@code metrics.listener=127.0.0.1:0}, each reporting its port
 * in {@code server.metrics}. Every documented name of a node's roles is served with a plausible
 * value, one controller is active, the image counts follow created topics, and the counters
 * move between two scrapes with creates in between. Nothing here measures cost.
 */
class MetricsProcessTest {
    private static final int BROKER = 4;
    private static final int TOPICS = 5;
    private static final int PARTITIONS = 2;
    private static final long CREATE_TIMEOUT_MS = 30_000;
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern SERIES = Pattern.compile("^([a-z_]+)\\{node_id=\"(\\d+)\"} (\\S+)$", Pattern.MULTILINE);
    private static final Pattern SECTION = Pattern.compile("^### (\\w+)", Pattern.MULTILINE);
    private static final Pattern ROW = Pattern.compile("^\\| `(metaquorum_[a-z_]+)` \\| (\\w+) \\|", Pattern.MULTILINE);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(HTTP_TIMEOUT).build();
    private ControllerCluster cluster;

    @AfterEach
    void stopEverything() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** One scrape: each series with only the node_id label, by name (histograms by NAME_count and NAME_sum). */
    record Scrape(int nodeId, String contentType, Map<String, Double> values) {
        double value(String name) {
            Double value = values.get(name);
            if (value == null) {
                throw new AssertionError("node " + nodeId + " does not serve " + name + ": " + values.keySet());
            }
            return value;
        }
    }

    private Scrape scrape(int nodeId) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + cluster.metricsAddress(nodeId) + "/metrics"))
                .timeout(HTTP_TIMEOUT).GET().build();
        HttpResponse<String> answer;
        try {
            answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("scraping node " + nodeId + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertEquals(200, answer.statusCode(), answer.body());
        Map<String, Double> values = new TreeMap<>();
        Matcher m = SERIES.matcher(answer.body());
        while (m.find()) {
            assertEquals(Integer.toString(nodeId), m.group(2), m.group());
            values.put(m.group(1), Double.parseDouble(m.group(3)));
        }
        return new Scrape(nodeId, answer.headers().firstValue("Content-Type").orElse(""), values);
    }

    private double sumOverControllers(String name) {
        double sum = 0;
        for (int id : ControllerCluster.NODE_IDS) {
            sum += scrape(id).value(name);
        }
        return sum;
    }

    private int activeController() {
        return cluster.await("one active controller by its metrics", () -> {
            if (sumOverControllers("metaquorum_controller_active_controller_count") != 1) {
                return Optional.empty();
            }
            return ControllerCluster.NODE_IDS.stream()
                    .filter(id -> scrape(id).value("metaquorum_controller_active_controller_count") == 1).findFirst();
        });
    }

    /** docs/metrics.md's names by section (Controller, Raft, Snapshots, Broker), histograms as NAME_count. */
    private static Map<String, Set<String>> documentedNames() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "metrics.md"));
        Map<String, Set<String>> bySection = new TreeMap<>();
        Matcher sections = SECTION.matcher(doc);
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (sections.find()) {
            bounds.add(new int[] {sections.start(), 0});
            names.add(sections.group(1));
        }
        for (int i = 0; i < bounds.size(); i++) {
            int end = i + 1 < bounds.size() ? bounds.get(i + 1)[0] : doc.length();
            Set<String> rows = new TreeSet<>();
            Matcher row = ROW.matcher(doc.substring(bounds.get(i)[0], end));
            while (row.find()) {
                rows.add(row.group(2).equals("histogram") ? row.group(1) + "_count" : row.group(1));
            }
            bySection.put(names.get(i), rows);
        }
        return bySection;
    }

    private static void assertServes(Scrape scrape, Set<String> names) {
        for (String name : names) {
            scrape.value(name);
        }
    }

    @Test
    void controllersAndABrokerServeTheDocumentedMetricsAndTheyFollowTheCluster(TestInfo test) throws Exception {
        cluster = ControllerCluster.start(ProcessTestNames.of(test), Map.of("metrics.listener", "127.0.0.1:0",
                "broker.heartbeat.interval.ms", "500", "broker.session.timeout.ms", "3000"), 1);
        int active = activeController();
        cluster.await("the broker unfenced, by the active controller's metrics", () -> Optional.of(scrape(active))
                .filter(s -> s.value("metaquorum_controller_active_broker_count") == 1
                        && s.value("metaquorum_controller_fenced_broker_count") == 0));

        Map<String, Set<String>> documented = documentedNames();
        Scrape before = scrape(active);
        assertTrue(before.contentType().startsWith("text/plain; version=0.0.4"), before.contentType());
        for (int id : ControllerCluster.NODE_IDS) {
            Scrape controller = scrape(id);
            assertServes(controller, documented.get("Controller"));
            assertServes(controller, documented.get("Raft"));
            assertServes(controller, documented.get("Snapshots"));
            assertFalse(controller.values().containsKey("metaquorum_broker_metadata_last_applied_record_offset"));
            assertEquals(active, controller.value("metaquorum_raft_current_leader"), "node " + id);
        }
        Scrape brokerBefore = scrape(BROKER);
        assertServes(brokerBefore, documented.get("Broker"));
        assertServes(brokerBefore, documented.get("Snapshots"));
        Set<String> brokerRaft = new TreeSet<>(documented.get("Raft"));
        brokerRaft.remove("metaquorum_raft_append_records_total");
        assertServes(brokerBefore, brokerRaft);
        assertFalse(brokerBefore.values().containsKey("metaquorum_controller_active_controller_count"));

        createTopics();

        for (int id : ControllerCluster.NODE_IDS) {
            cluster.await("node " + id + " counts the topics created", () -> Optional.of(scrape(id))
                    .filter(s -> s.value("metaquorum_controller_global_topic_count") == TOPICS
                            && s.value("metaquorum_controller_global_partition_count") == TOPICS * PARTITIONS));
        }
        Scrape after = scrape(active);
        assertCountersMoved(before, after);
        Scrape brokerAfter = cluster.await("the broker's directories caught up", () -> Optional.of(scrape(BROKER))
                .filter(s -> s.value("metaquorum_broker_partition_directories_backlog_offsets") == 0
                        && s.value("metaquorum_broker_partition_directories_applied_offset")
                        >= after.value("metaquorum_controller_last_applied_record_offset") - 100));
        assertTrue(brokerAfter.value("metaquorum_raft_fetch_records_total")
                >= brokerBefore.value("metaquorum_raft_fetch_records_total") + TOPICS * (1 + PARTITIONS));
        assertTrue(brokerAfter.value("metaquorum_broker_metadata_last_applied_record_offset")
                > brokerBefore.value("metaquorum_broker_metadata_last_applied_record_offset"));
        assertPlausibleLag(brokerAfter.value("metaquorum_broker_metadata_last_applied_record_lag_seconds"));

        assertEquals(ControllerProcess.EXIT_SIGTERM, cluster.terminate(BROKER));
        assertFalse(Files.exists(cluster.node(BROKER).metricsFile()), "a clean exit removes server.metrics");
    }

    private void createTopics() {
        List<CreatableTopic> topics = new ArrayList<>();
        for (int i = 0; i < TOPICS; i++) {
            topics.add(CreatableTopic.newBuilder().setName("metrics-" + i).setNumPartitions(PARTITIONS)
                    .setReplicationFactor(1).build());
        }
        try (AdminClient client = AdminClient.connect(cluster.addresses())) {
            for (CreatableTopic topic : topics) {
                List<CreatableTopicResult> results = client.createTopics(List.of(topic), false, CREATE_TIMEOUT_MS);
                assertEquals(ErrorCode.NONE, results.get(0).getErrorCode(), results.toString());
            }
        }
    }

    /** The active controller's counters and histograms between a scrape before the creates and one after. */
    private static void assertCountersMoved(Scrape before, Scrape after) {
        int records = TOPICS * (1 + PARTITIONS);
        assertTrue(after.value("metaquorum_raft_append_records_total")
                >= before.value("metaquorum_raft_append_records_total") + records, after.values().toString());
        for (String histogram : List.of("metaquorum_controller_event_queue_time_seconds",
                "metaquorum_controller_event_queue_processing_time_seconds", "metaquorum_raft_commit_latency_seconds")) {
            assertTrue(after.value(histogram + "_count") >= before.value(histogram + "_count") + TOPICS, histogram);
            assertTrue(after.value(histogram + "_sum") > before.value(histogram + "_sum"), histogram);
        }
        assertTrue(after.value("metaquorum_raft_high_watermark") > before.value("metaquorum_raft_high_watermark"));
        assertTrue(after.value("metaquorum_raft_log_end_offset") >= after.value("metaquorum_raft_high_watermark"));
        assertTrue(after.value("metaquorum_raft_current_epoch") >= 1);
        assertTrue(after.value("metaquorum_raft_elections_total") >= 1);
        assertTrue(after.value("metaquorum_raft_leader_changes_total") >= 1);
        assertEquals(0, after.value("metaquorum_controller_offline_partitions_count"));
        assertTrue(after.value("metaquorum_controller_last_applied_record_offset")
                > before.value("metaquorum_controller_last_applied_record_offset"));
        assertTrue(after.value("metaquorum_controller_last_committed_record_offset")
                >= after.value("metaquorum_controller_last_applied_record_offset"));
        assertPlausibleLag(after.value("metaquorum_controller_last_applied_record_lag_seconds"));
        assertTrue(after.value("process_uptime_seconds") > 0);
    }

    /** A record every metadata.max.idle.interval.ms: seconds of lag would mean a stuck node, or a wrong unit. */
    private static void assertPlausibleLag(double lagSeconds) {
        assertTrue(lagSeconds >= -1 && lagSeconds < 30, "lag " + lagSeconds + " s");
    }
}
