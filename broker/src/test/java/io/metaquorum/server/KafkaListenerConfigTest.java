package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import io.metaquorum.server.ListenerSpec.SecurityProtocol;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code listeners} with more than one entry: which is the gRPC listener (named by
 * {@code controller.listener.names} / {@code inter.broker.listener.name}, else the first),
 * the Kafka-protocol rest, and the mistakes refused with the key at fault.
 */
class KafkaListenerConfigTest {
    private static Map<String, String> node(String roles, String listeners, String protocolMap) {
        Map<String, String> raw = new HashMap<>();
        raw.put("process.roles", roles);
        raw.put("node.id", "1");
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091");
        raw.put("listeners", listeners);
        raw.put("listener.security.protocol.map", protocolMap);
        raw.put("metadata.log.dir", "/tmp/mq/node-1/metadata");
        if (roles.contains("broker")) {
            raw.put("log.dirs", "/tmp/mq/node-1/logs");
        }
        return raw;
    }

    private static ConfigException refused(Map<String, String> raw) {
        return assertThrows(ConfigException.class, () -> ServerConfig.parse(raw));
    }

    private static ListenerSpec plaintext(String name, int port) {
        return new ListenerSpec(name, SecurityProtocol.PLAINTEXT, new HostPort("127.0.0.1", port));
    }

    @Test
    void aSingleEntryIsTheGrpcListenerAndNoKafkaListener() {
        ServerConfig config = ServerConfig.parse(node("controller", "127.0.0.1:19091", ListenerSpec.DEFAULT_PROTOCOL_MAP));
        assertEquals(plaintext("PLAINTEXT", 19091), config.listenerSpec());
        assertEquals(List.of(), config.kafkaListeners());
        assertEquals(104_857_600, config.kafkaRequestBytesMax());
        assertEquals(600_000L, config.kafkaConnectionIdleMsMax());
    }

    @Test
    void theControllerListenerNameChoosesTheGrpcListener() {
        Map<String, String> raw = node("controller", "EXTERNAL://127.0.0.1:19191,CONTROLLER://127.0.0.1:19091",
                "CONTROLLER:PLAINTEXT,EXTERNAL:PLAINTEXT");
        raw.put("controller.listener.names", "CONTROLLER");
        ServerConfig config = ServerConfig.parse(raw);
        assertEquals(plaintext("CONTROLLER", 19091), config.listenerSpec());
        assertEquals(List.of(plaintext("EXTERNAL", 19191)), config.kafkaListeners());
    }

    @Test
    void theInterBrokerListenerNameChoosesABrokersGrpcListener() {
        Map<String, String> raw = node("broker", "EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0",
                "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT");
        raw.put("inter.broker.listener.name", "INTERNAL");
        raw.put("controller.listener.names", "CONTROLLER");
        ServerConfig config = ServerConfig.parse(raw);
        assertEquals(plaintext("INTERNAL", 0), config.listenerSpec(), "a broker ignores controller.listener.names");
        assertEquals(List.of(plaintext("EXTERNAL", 0)), config.kafkaListeners(), "port 0 twice is allowed");
    }

    @Test
    void withoutANameTheFirstEntryIsTheGrpcListener() {
        ServerConfig config = ServerConfig.parse(node("broker",
                "INTERNAL://127.0.0.1:19094,EXTERNAL://127.0.0.1:19194,OTHER://127.0.0.1:19294",
                "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT,OTHER:PLAINTEXT"));
        assertEquals("INTERNAL", config.listenerSpec().name());
        assertEquals(List.of("EXTERNAL", "OTHER"), config.kafkaListeners().stream().map(ListenerSpec::name).toList());
    }

    @Test
    void anSslKafkaListenerNeedsTheKeyStoreEvenBesideAPlaintextGrpcListener() {
        Map<String, String> raw = node("controller", "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:19191",
                "CONTROLLER:PLAINTEXT,EXTERNAL:SSL");
        assertEquals("ssl.keystore.location", refused(raw).key());
        raw.put("ssl.keystore.location", "/certs/node-1.p12");
        raw.put("ssl.keystore.password", "secret");
        ServerConfig config = ServerConfig.parse(raw);
        assertEquals(SecurityProtocol.PLAINTEXT, config.listenerSpec().protocol());
        assertEquals(SecurityProtocol.SSL, config.kafkaListeners().get(0).protocol());
        assertTrue(config.ssl().isPresent());
    }

    @Test
    void mistakesNameTheirKey() {
        String map = "CONTROLLER:PLAINTEXT,EXTERNAL:PLAINTEXT,SASL:SASL_SSL";
        assertEquals("ssl.keystore.location", refused(node("controller",
                "CONTROLLER://127.0.0.1:19091,SASL://127.0.0.1:19191", map)).key(), "SASL_SSL needs the TLS keys");
        assertEquals("sasl.enabled.mechanisms", refused(node("controller",
                "CONTROLLER://127.0.0.1:19091,SASL_PLAINTEXT://127.0.0.1:19191", ListenerSpec.DEFAULT_PROTOCOL_MAP
                        + ",CONTROLLER:PLAINTEXT")).key(), "a SASL listener needs its mechanisms");
        ConfigException twiceNamed = refused(node("controller",
                "CONTROLLER://127.0.0.1:19091,CONTROLLER://127.0.0.1:19191", map));
        assertEquals("listeners", twiceNamed.key());
        assertTrue(twiceNamed.getMessage().contains("CONTROLLER"), twiceNamed.getMessage());
        ConfigException samePort = refused(node("controller",
                "CONTROLLER://127.0.0.1:19091,EXTERNAL://0.0.0.0:19091", map));
        assertEquals("listeners", samePort.key());
        assertTrue(samePort.getMessage().contains("19091"), samePort.getMessage());
        Map<String, String> unknownController = node("controller",
                "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:19191", map);
        unknownController.put("controller.listener.names", "VOTERS");
        assertEquals("controller.listener.names", refused(unknownController).key());
        Map<String, String> twoControllers = node("controller",
                "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:19191", map);
        twoControllers.put("controller.listener.names", "CONTROLLER,EXTERNAL");
        assertEquals("controller.listener.names", refused(twoControllers).key());
        Map<String, String> unknownInterBroker = node("broker", "CONTROLLER://127.0.0.1:0,EXTERNAL://127.0.0.1:0", map);
        unknownInterBroker.put("inter.broker.listener.name", "INTERNAL");
        assertEquals("inter.broker.listener.name", refused(unknownInterBroker).key());
        Map<String, String> combinedDisagreeing = node("controller,broker",
                "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:19191", map);
        combinedDisagreeing.put("controller.listener.names", "CONTROLLER");
        combinedDisagreeing.put("inter.broker.listener.name", "EXTERNAL");
        assertEquals("inter.broker.listener.name", refused(combinedDisagreeing).key());
        Map<String, String> metricsOnKafkaPort = node("controller",
                "CONTROLLER://127.0.0.1:19091,EXTERNAL://127.0.0.1:19191", map);
        metricsOnKafkaPort.put("metrics.listener", "127.0.0.1:19191");
        assertEquals("metrics.listener", refused(metricsOnKafkaPort).key());
        Map<String, String> noFrame = node("controller", "127.0.0.1:19091", ListenerSpec.DEFAULT_PROTOCOL_MAP);
        noFrame.put("socket.request.max.bytes", "0");
        assertEquals("socket.request.max.bytes", refused(noFrame).key());
        Map<String, String> noIdle = node("controller", "127.0.0.1:19091", ListenerSpec.DEFAULT_PROTOCOL_MAP);
        noIdle.put("connections.max.idle.ms", "0");
        assertEquals("connections.max.idle.ms", refused(noIdle).key());
    }
}
