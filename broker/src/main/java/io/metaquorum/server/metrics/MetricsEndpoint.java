package io.metaquorum.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.metaquorum.net.HostPort;
import io.metaquorum.server.status.StatusPage;
import io.metaquorum.server.status.StatusReport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's Prometheus endpoint and status page ({@code metrics.listener}, docs/metrics.md):
 * plain HTTP on the JDK's server, one thread. {@code GET /metrics} answers a scrape of the
 * registry in the Prometheus text format 0.0.4, or OpenMetrics 1.0 when the scraper's
 * {@code Accept} asks for it; {@code GET /} the status page, which polls
 * {@code GET /status.json} ({@link StatusReport}). Any other path is 404, any other method
 * 405. A scrape reads every gauge then, on this thread: nothing is computed for metrics
 * between scrapes.
 */
public final class MetricsEndpoint implements AutoCloseable {
    public static final String PATH = "/metrics";
    public static final String STATUS_PAGE_PATH = "/";
    public static final String STATUS_JSON_PATH = "/status.json";
    public static final String TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    public static final String OPENMETRICS_CONTENT_TYPE =
            "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** Connections waiting to be accepted at most. */
    private static final int BACKLOG_MAX = 16;

    private final HttpServer server;
    private final ExecutorService executor;
    private final HostPort bound;
    private final StatusReport status;

    private MetricsEndpoint(HttpServer server, ExecutorService executor, HostPort bound, StatusReport status) {
        this.server = server;
        this.executor = executor;
        this.bound = bound;
        this.status = status;
    }

    /**
     * Binds {@code address} (port 0: any free port) and serves {@code registry}; throws
     * {@link UncheckedIOException} naming the address when it cannot bind.
     */
    public static MetricsEndpoint start(HostPort address, PrometheusMeterRegistry registry, StatusReport status,
                                        int nodeId) {
        HttpServer server;
        try {
            server = HttpServer.create(address.toAddress(), BACKLOG_MAX);
        } catch (IOException e) {
            status.close();
            throw new UncheckedIOException("cannot bind metrics.listener " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "metrics-http-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        String page = StatusPage.html();
        server.createContext("/", exchange -> answer(exchange, registry, status, page));
        server.start();
        HostPort bound = new HostPort(address.host(), server.getAddress().getPort());
        LOG.info("[node {}] metrics served on http://{}{}, the status page on http://{}{}", nodeId, bound, PATH,
                bound, STATUS_PAGE_PATH);
        return new MetricsEndpoint(server, executor, bound, status);
    }

    /** The configured host with the port it bound. */
    public HostPort address() {
        return bound;
    }

    private static void answer(HttpExchange exchange, PrometheusMeterRegistry registry, StatusReport status,
                               String page) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            if (!path.equals(PATH) && !path.equals(STATUS_PAGE_PATH) && !path.equals(STATUS_JSON_PATH)) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: the metrics are at " + PATH
                        + ", the status page at " + STATUS_PAGE_PATH + "\n", method);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().put("Allow", List.of("GET, HEAD"));
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed: GET or HEAD\n", method);
                return;
            }
            switch (path) {
                case PATH -> {
                    String contentType = wantsOpenMetrics(exchange) ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
                    send(exchange, 200, contentType, registry.scrape(contentType), method);
                }
                case STATUS_JSON_PATH -> {
                    exchange.getResponseHeaders().put("Cache-Control", List.of("no-store"));
                    send(exchange, 200, "application/json; charset=utf-8", status.json(), method);
                }
                default -> send(exchange, 200, "text/html; charset=utf-8", page, method);
            }
        }
    }

    private static boolean wantsOpenMetrics(HttpExchange exchange) {
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        return accept != null && accept.contains("application/openmetrics-text");
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body, String method)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().put("Content-Type", List.of(contentType));
        boolean head = method.equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops serving at once; a scrape under way is cut short. Closes the status report, which it owns. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        status.close();
    }
}
