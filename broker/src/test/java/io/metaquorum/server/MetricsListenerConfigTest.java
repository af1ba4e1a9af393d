package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code metrics.listener}: absent is off, {@code HOST:PORT} (port 0 too) is on, anything else stops start-up. */
class MetricsListenerConfigTest {
    private static ServerConfig parse(String value) {
        Map<String, String> raw = ServerConfigTest.valid();
        raw.put(ConfigKeys.METRICS_LISTENER, value);
        return ServerConfig.parse(raw);
    }

    private static ConfigException refused(String value) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(value));
        assertEquals(ConfigKeys.METRICS_LISTENER, e.key(), e.getMessage());
        return e;
    }

    @Test
    void absentIsOff() {
        assertEquals(Optional.empty(), ServerConfig.parse(ServerConfigTest.valid()).metricsListener());
    }

    @Test
    void hostAndPortTurnItOnAndPortZeroIsAnyFreePort() {
        assertEquals(Optional.of(new HostPort("127.0.0.1", 19292)), parse("127.0.0.1:19292").metricsListener());
        assertEquals(Optional.of(new HostPort("127.0.0.1", 0)), parse(" 127.0.0.1:0 ").metricsListener());
        assertEquals(Optional.of(new HostPort("::1", 9100)), parse("[::1]:9100").metricsListener());
    }

    @Test
    void anythingButHostAndPortIsRefusedNamingTheKey() {
        assertTrue(refused("").getMessage().contains("expected HOST:PORT"));
        assertTrue(refused("9100").getMessage().contains("expected HOST:PORT"));
        assertTrue(refused("127.0.0.1:").getMessage().contains("expected HOST:PORT"));
        assertTrue(refused("127.0.0.1:http").getMessage().contains("not a number"));
        assertTrue(refused("127.0.0.1:70000").getMessage().contains("outside 0-65535"));
        assertTrue(refused("PLAINTEXT://127.0.0.1:9100").getMessage().contains("no listener name"));
    }

    @Test
    void theGrpcListenersPortIsRefused() {
        assertTrue(refused("127.0.0.1:19092").getMessage().contains("the node's listeners port"));
        assertTrue(refused("0.0.0.0:19092").getMessage().contains("the node's listeners port"));
    }
}
