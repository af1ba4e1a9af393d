package io.metaquorum.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.loader.MetadataLoader;
import io.grpc.InsecureChannelCredentials;
import io.metaquorum.net.HostPort;
import io.metaquorum.server.status.LeaderQuorumView;
import io.metaquorum.server.status.StatusReport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The metrics endpoint on its own, over a node's metrics with nothing behind them yet: what a
 * scrape answers (the text format 0.0.4, or OpenMetrics when asked), the status page and its
 * JSON, 404 and 405, and that the names it serves are exactly docs/metrics.md's.
 */
class MetricsEndpointTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern DOCUMENTED = Pattern.compile("^\\| `(metaquorum_[a-z_]+)` \\|", Pattern.MULTILINE);
    private static final Pattern SERVED = Pattern.compile("^# TYPE (metaquorum_[a-z_]+) ", Pattern.MULTILINE);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private NodeMetrics metrics;
    private MetricsEndpoint endpoint;

    @BeforeEach
    void start() {
        metrics = NodeMetrics.on(7);
        MetadataLoader loader = new MetadataLoader("[node 7] ", 1_000_000, task -> false);
        metrics.bindRaft(() -> null);
        metrics.bindController(loader, () -> true, () -> null);
        metrics.bindBroker(loader, () -> -1, () -> 0);
        metrics.raftListener(loader);
        ControllerLoopMetrics loop = metrics.controllerLoop();
        loop.queued((controller, nowMs) -> { }).run(null, 0);
        loop.onAppend(3);
        StatusReport report = new StatusReport(new StatusReport.Identity(7, "cluster-7", List.of("controller",
                "broker")), () -> null, loader::image, new LeaderQuorumView(Map.of(), InsecureChannelCredentials.create(),
                1_000), metrics.history(), () -> 1_700_000_000_000L);
        endpoint = metrics.serve(new HostPort("127.0.0.1", 0), report);
    }

    @AfterEach
    void stop() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private HttpResponse<String> send(String method, String path, String accept) throws IOException,
            InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + endpoint.address() + path))
                .timeout(TIMEOUT).method(method, HttpRequest.BodyPublishers.noBody());
        if (accept != null) {
            request.header("Accept", accept);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void getMetricsAnswersTheTextFormatWithTheNodesMetrics() throws Exception {
        HttpResponse<String> answer = send("GET", "/metrics", null);

        assertEquals(200, answer.statusCode());
        assertEquals(MetricsEndpoint.TEXT_CONTENT_TYPE, answer.headers().firstValue("Content-Type").orElseThrow());
        String body = answer.body();
        assertTrue(body.contains("# HELP metaquorum_controller_active_controller_count "), body);
        assertTrue(body.contains("metaquorum_controller_active_controller_count{node_id=\"7\"} 1.0"), body);
        assertTrue(body.contains("metaquorum_raft_append_records_total{node_id=\"7\"} 3.0"), body);
        assertTrue(body.contains("metaquorum_controller_event_queue_time_seconds_count{node_id=\"7\"} 1"), body);
        assertTrue(body.contains("metaquorum_controller_event_queue_processing_time_seconds_bucket{node_id=\"7\","),
                body);
        assertTrue(body.contains("metaquorum_controller_global_topic_count{node_id=\"7\"} 0.0"), body);
        assertTrue(body.contains("jvm_memory_used_bytes"), body);
    }

    @Test
    void anOpenMetricsScraperGetsOpenMetrics() throws Exception {
        HttpResponse<String> answer = send("GET", "/metrics", "application/openmetrics-text; version=1.0.0");

        assertEquals(200, answer.statusCode());
        assertEquals(MetricsEndpoint.OPENMETRICS_CONTENT_TYPE,
                answer.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(answer.body().endsWith("# EOF\n"), answer.body());
    }

    @Test
    void anyOtherPathIsNotFoundAndAnyOtherMethodNotAllowed() throws Exception {
        assertEquals(404, send("GET", "/index.html", null).statusCode());
        assertEquals(404, send("GET", "/status", null).statusCode());
        assertEquals(404, send("GET", "/metrics/x", null).statusCode());
        assertEquals(404, send("GET", "/prometheus", null).statusCode());
        HttpResponse<String> post = send("POST", "/metrics", null);
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        HttpResponse<String> head = send("HEAD", "/metrics", null);
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
    }

    @Test
    void theRootIsTheStatusPageAndItsDataIsJson() throws Exception {
        HttpResponse<String> page = send("GET", "/", null);
        assertEquals(200, page.statusCode());
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(page.body().contains("fetch(\"status.json\""), "the page polls its data");

        HttpResponse<String> data = send("GET", "/status.json", null);
        assertEquals(200, data.statusCode());
        assertEquals("application/json; charset=utf-8", data.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("no-store", data.headers().firstValue("Cache-Control").orElseThrow());
        assertTrue(data.body().startsWith("{\"nodeId\": 7, \"clusterId\": \"cluster-7\", \"roles\": [\"controller\", "
                + "\"broker\"], \"nowMs\": 1700000000000, \"raft\": null, \"quorum\": null, \"quorumProblem\": "
                + "\"raft is starting\""), data.body());
    }

    @Test
    void theNamesServedAreExactlyTheDocumentedOnes() throws Exception {
        Set<String> documented = names(DOCUMENTED, Files.readString(Path.of("..", "docs", "metrics.md")));
        Set<String> served = names(SERVED, send("GET", "/metrics", null).body());
        // Each timer's histogram comes with its maximum as a gauge, NAME_max: documented with it.
        served.removeIf(name -> name.endsWith("_seconds_max")
                && documented.contains(name.substring(0, name.length() - "_max".length())));

        assertEquals(documented, served, "docs/metrics.md's table and what a node with both roles serves");
    }

    private static Set<String> names(Pattern pattern, String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
