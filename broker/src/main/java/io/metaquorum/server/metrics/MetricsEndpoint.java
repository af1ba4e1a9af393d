package io.metaquorum.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.metaquorum.net.HostPort;
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
 * The node's Prometheus endpoint ({@code metrics.listener}, docs/metrics.md): plain HTTP on
 * the JDK's server, one thread, {@code GET /metrics} answered with a scrape of the registry
 * in the Prometheus text format 0.0.4, or OpenMetrics 1.0 when the scraper's {@code Accept}
 * asks for it. Any other path is 404, any other method 405. A scrape reads every gauge then,
 * on this thread: nothing is computed for metrics between scrapes.
 */
public final class MetricsEndpoint implements AutoCloseable {
    public static final String PATH = "/metrics";
    public static final String TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    public static final String OPENMETRICS_CONTENT_TYPE =
            "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    /** Connections waiting to be accepted at most. */
    private static final int BACKLOG_MAX = 16;

    private final HttpServer server;
    private final ExecutorService executor;
    private final HostPort bound;

    private MetricsEndpoint(HttpServer server, ExecutorService executor, HostPort bound) {
        this.server = server;
        this.executor = executor;
        this.bound = bound;
    }

    /**
     * Binds {@code address} (port 0: any free port) and serves {@code registry}; throws
     * {@link UncheckedIOException} naming the address when it cannot bind.
     */
    public static MetricsEndpoint start(HostPort address, PrometheusMeterRegistry registry, int nodeId) {
        HttpServer server;
        try {
            server = HttpServer.create(address.toAddress(), BACKLOG_MAX);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind metrics.listener " + address + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "metrics-http-" + nodeId);
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> answer(exchange, registry));
        server.start();
        HostPort bound = new HostPort(address.host(), server.getAddress().getPort());
        LOG.info("[node {}] metrics served on http://{}{}", nodeId, bound, PATH);
        return new MetricsEndpoint(server, executor, bound);
    }

    /** The configured host with the port it bound. */
    public HostPort address() {
        return bound;
    }

    private static void answer(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: the metrics are at " + PATH + "\n",
                        method);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().put("Allow", List.of("GET, HEAD"));
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed: GET or HEAD\n", method);
                return;
            }
            String contentType = wantsOpenMetrics(exchange) ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
            send(exchange, 200, contentType, registry.scrape(contentType), method);
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

    /** Stops serving at once; a scrape under way is cut short. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
