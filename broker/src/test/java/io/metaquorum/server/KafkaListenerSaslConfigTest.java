package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.server.kafka.SaslListenerSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SASL keys, in Kafka's names, as a Kafka operator writes them: a SASL_PLAINTEXT
 * Kafka-protocol listener gets its mechanisms (global or per listener), PLAIN users from its
 * JAAS line, and the limits; each mistake stops start-up naming its key.
 */
class KafkaListenerSaslConfigTest {
    private static final String PLAIN_KEY = "listener.name.sasl_plaintext.plain.sasl.jaas.config";
    private static final String PLAIN_USERS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " user_alice=\"alice-secret\" user_bob=\"bob-secret\";";

    private static Map<String, String> node() {
        Map<String, String> raw = new HashMap<>();
        raw.put("process.roles", "broker");
        raw.put("node.id", "4");
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091");
        raw.put("listeners", "INTERNAL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0");
        raw.put("listener.security.protocol.map", "INTERNAL:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT");
        raw.put("inter.broker.listener.name", "INTERNAL");
        raw.put("metadata.log.dir", "/tmp/mq/node-4/metadata");
        raw.put("log.dirs", "/tmp/mq/node-4/logs");
        raw.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256");
        raw.put(PLAIN_KEY, PLAIN_USERS);
        return raw;
    }

    private static ConfigException refused(Map<String, String> raw) {
        return assertThrows(ConfigException.class, () -> ServerConfig.parse(raw));
    }

    @Test
    void aKafkaOperatorsSaslKeysGiveTheListenerItsMechanismsUsersAndLimits() {
        Map<String, String> raw = node();
        raw.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        raw.put("connections.max.reauth.ms", "0");
        SaslListenerSettings sasl = ServerConfig.parse(raw).sasl("SASL_PLAINTEXT").orElseThrow();
        assertEquals(List.of("PLAIN", "SCRAM-SHA-256"), sasl.mechanisms());
        assertEquals(Map.of("alice", "alice-secret", "bob", "bob-secret"), sasl.plainUsers());
        assertEquals(524_288, sasl.receiveBytesMax());
        assertEquals(100, sasl.failedAuthenticationDelayMs());
        assertFalse(sasl.toString().contains("secret"), "passwords stay out of log lines");
        assertTrue(ServerConfig.parse(raw).sasl("INTERNAL").isEmpty());
    }

    @Test
    void theListenersOwnMechanismsOverrideTheNodes() {
        Map<String, String> raw = node();
        raw.put("listener.name.sasl_plaintext.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        raw.remove(PLAIN_KEY);
        raw.put("sasl.server.max.receive.size", "8192");
        raw.put("connection.failed.authentication.delay.ms", "0");
        SaslListenerSettings sasl = ServerConfig.parse(raw).sasl("SASL_PLAINTEXT").orElseThrow();
        assertEquals(List.of("SCRAM-SHA-512"), sasl.mechanisms());
        assertEquals(Map.of(), sasl.plainUsers());
        assertEquals(8192, sasl.receiveBytesMax());
        assertEquals(0, sasl.failedAuthenticationDelayMs());
    }

    @Test
    void mechanismsUnsetOrNotSupportedAreRefusedNamingTheKey() {
        Map<String, String> unset = node();
        unset.remove("sasl.enabled.mechanisms");
        ConfigException noMechanisms = refused(unset);
        assertEquals("sasl.enabled.mechanisms", noMechanisms.key());
        assertTrue(noMechanisms.getMessage().contains("GSSAPI"), noMechanisms.getMessage());
        for (String refusedMechanism : List.of("GSSAPI", "OAUTHBEARER", "plain", "DIGEST-MD5")) {
            Map<String, String> raw = node();
            raw.put("sasl.enabled.mechanisms", "PLAIN," + refusedMechanism);
            ConfigException e = refused(raw);
            assertEquals("sasl.enabled.mechanisms", e.key());
            assertTrue(e.getMessage().contains("SCRAM-SHA-512"), "names what is supported: " + e.getMessage());
        }
        Map<String, String> perListener = node();
        perListener.put("listener.name.sasl_plaintext.sasl.enabled.mechanisms", "GSSAPI");
        assertEquals("listener.name.sasl_plaintext.sasl.enabled.mechanisms", refused(perListener).key());
    }

    @Test
    void plainUsersAreRequiredAndReadWithKafkasJaasParser() {
        Map<String, String> missing = node();
        missing.remove(PLAIN_KEY);
        assertEquals(PLAIN_KEY, refused(missing).key());
        for (String bad : List.of("org.apache.kafka.common.security.plain.PlainLoginModule required;",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\"",
                "org.apache.kafka.common.security.scram.ScramLoginModule required user_alice=\"a\";",
                "not a jaas line")) {
            Map<String, String> raw = node();
            raw.put(PLAIN_KEY, bad);
            ConfigException e = refused(raw);
            assertEquals(PLAIN_KEY, e.key(), bad);
            assertFalse(e.getMessage().contains("alice-secret"), e.getMessage());
        }
        Map<String, String> notEnabled = node();
        notEnabled.put("sasl.enabled.mechanisms", "SCRAM-SHA-256");
        assertEquals(PLAIN_KEY, refused(notEnabled).key(), "users for a mechanism the listener does not enable");
    }

    @Test
    void listenerKeysMustNameASaslListenerAndOtherKeysStayUnknown() {
        Map<String, String> typo = node();
        typo.put("listener.name.sasl_plain.sasl.enabled.mechanisms", "PLAIN");
        assertEquals("listener.name.sasl_plain.sasl.enabled.mechanisms", refused(typo).key());
        Map<String, String> notSasl = node();
        notSasl.put("listener.name.internal.plain.sasl.jaas.config", PLAIN_USERS);
        assertEquals("listener.name.internal.plain.sasl.jaas.config", refused(notSasl).key());
        Map<String, String> gssapi = node();
        gssapi.put("listener.name.sasl_plaintext.gssapi.sasl.jaas.config", "x required;");
        assertEquals("listener.name.sasl_plaintext.gssapi.sasl.jaas.config", refused(gssapi).key());
        assertTrue(refused(gssapi).getMessage().contains("unknown"));
    }

    @Test
    void limitsOutOfRangeAndReauthenticationAreRefused() {
        for (Map.Entry<String, String> bad : Map.of("sasl.server.max.receive.size", "0",
                "connection.failed.authentication.delay.ms", "-1", "connections.max.reauth.ms", "3600000").entrySet()) {
            Map<String, String> raw = node();
            raw.put(bad.getKey(), bad.getValue());
            assertEquals(bad.getKey(), refused(raw).key());
        }
    }

    @Test
    void theGrpcListenerMayNotBeSasl() {
        Map<String, String> raw = node();
        raw.put("inter.broker.listener.name", "SASL_PLAINTEXT");
        ConfigException e = refused(raw);
        assertEquals("listener.security.protocol.map", e.key());
        assertTrue(e.getMessage().contains("gRPC"), e.getMessage());
    }
}
