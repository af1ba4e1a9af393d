package io.metaquorum.raft.transport.grpc.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RefusedConnectionLogTest {
    private final ManualTime time = new ManualTime();
    private final RefusedConnectionLog log = new RefusedConnectionLog(LoggerFactory.getLogger("refused"), "[node 5] ",
            new LineRateLimiter(time, LineRateLimiter.INTERVAL_MS));

    @Test
    void peersAreHostColonPortWithIpv6InBrackets() throws Exception {
        assertEquals("10.0.0.7:51946",
                RefusedConnectionLog.hostAndPort(new InetSocketAddress(InetAddress.getByName("10.0.0.7"), 51946)));
        assertEquals("[0:0:0:0:0:0:0:1]:51946",
                RefusedConnectionLog.hostAndPort(new InetSocketAddress(InetAddress.getByName("::1"), 51946)));
    }

    @Test
    void oneLinePerReasonPerIntervalThenTheCount() throws Exception {
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            for (int port = 1; port <= 58; port++) {
                log.onRefused(new InetSocketAddress(InetAddress.getByName("10.0.0.7"), port),
                        new Refusal(RefusalReason.NOT_HTTP2));
                time.advanceMs(100);
            }
            log.onRefused(new InetSocketAddress(InetAddress.getByName("10.0.0.9"), 1),
                    new Refusal(RefusalReason.UNKNOWN_CA));
            time.advanceMs(LineRateLimiter.INTERVAL_MS);
            log.onRefused(new InetSocketAddress(InetAddress.getByName("10.0.0.8"), 99),
                    new Refusal(RefusalReason.NOT_HTTP2));
            lines = err.lines();
        }
        assertEquals(List.of(
                "[main] WARN refused - [node 5] refused a connection from 10.0.0.7:1: not HTTP/2 (garbage or an HTTP/1 client)",
                "[main] WARN refused - [node 5] refused a connection from 10.0.0.9:1: TLS handshake failed: certificate"
                        + " signed by an unknown CA",
                "[main] WARN refused - [node 5] refused a connection from 10.0.0.8:99: not HTTP/2 (garbage or an HTTP/1"
                        + " client) (and 57 more like it in the last 16 s)"), lines);
    }
}
