package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.net.HostPort;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.StoreSource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code listeners} with Kafka's listener names, the protocol map, and the ssl.* keys against them. */
class ListenerConfigTest {
    private static Map<String, String> controller(String listeners) {
        Map<String, String> raw = new HashMap<>();
        raw.put("process.roles", "controller");
        raw.put("node.id", "2");
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091,2@127.0.0.1:19092,3@127.0.0.1:19093");
        raw.put("listeners", listeners);
        raw.put("metadata.log.dir", "/tmp/mq/node-2/metadata");
        return raw;
    }

    private static Map<String, String> ssl(String listeners) {
        Map<String, String> raw = controller(listeners);
        raw.put("ssl.keystore.location", "/certs/node-2.p12");
        raw.put("ssl.keystore.type", "PKCS12");
        raw.put("ssl.keystore.password", "secret");
        raw.put("ssl.truststore.location", "/certs/truststore.p12");
        raw.put("ssl.truststore.password", "secret");
        raw.put("ssl.client.auth", "required");
        return raw;
    }

    private static ConfigException refused(Map<String, String> raw) {
        return assertThrows(ConfigException.class, () -> ServerConfig.parse(raw));
    }

    @Test
    void aBareHostPortIsThePlaintextListener() {
        ServerConfig config = ServerConfig.parse(controller("127.0.0.1:19092"));
        assertEquals(new ListenerSpec("PLAINTEXT", ListenerSpec.SecurityProtocol.PLAINTEXT,
                new HostPort("127.0.0.1", 19092)), config.listenerSpec());
        assertTrue(config.ssl().isEmpty());
    }

    @Test
    void aNamedListenerTakesItsProtocolFromTheMap() {
        Map<String, String> raw = ssl("CONTROLLER://127.0.0.1:19092");
        raw.put("listener.security.protocol.map", "CONTROLLER:SSL");
        raw.put("controller.listener.names", "CONTROLLER");
        ServerConfig config = ServerConfig.parse(raw);
        assertEquals(ListenerSpec.SecurityProtocol.SSL, config.listenerSpec().protocol());
        assertEquals(new HostPort("127.0.0.1", 19092), config.listener());
        assertEquals(new StoreSource.KeyStoreFile(Path.of("/certs/node-2.p12"), "PKCS12",
                java.util.Optional.of("secret")), config.ssl().orElseThrow().keyStore().orElseThrow());
        assertEquals(List.of("TLSv1.3"), config.ssl().orElseThrow().protocols(), "TLSv1.3 by default");
        assertEquals(ClientAuthMode.REQUIRED, config.clientAuth());
    }

    @Test
    void theDefaultMapKnowsSslAndPlaintextByName() {
        assertEquals(ListenerSpec.SecurityProtocol.SSL,
                ServerConfig.parse(ssl("SSL://127.0.0.1:19092")).listenerSpec().protocol());
        assertEquals(ListenerSpec.SecurityProtocol.PLAINTEXT,
                ServerConfig.parse(controller("PLAINTEXT://127.0.0.1:19092")).listenerSpec().protocol());
    }

    @Test
    void mistakesNameTheirKey() {
        assertEquals("listener.security.protocol.map", refused(controller("CONTROLLER://127.0.0.1:19092")).key(),
                "a name the map does not know");
        Map<String, String> sasl = controller("SASL_SSL://127.0.0.1:19092");
        assertEquals("listener.security.protocol.map", refused(sasl).key(), "SASL is not spoken on gRPC");
        assertEquals("listeners", refused(controller("PLAINTEXT://127.0.0.1:19092,PLAINTEXT://127.0.0.1:19192"))
                .key(), "one name per listener");
        Map<String, String> noKeyStore = ssl("SSL://127.0.0.1:19092");
        noKeyStore.remove("ssl.keystore.location");
        noKeyStore.remove("ssl.keystore.password");
        assertEquals("ssl.keystore.location", refused(noKeyStore).key(), "a TLS server needs its key");
        Map<String, String> plaintextWithStores = ssl("127.0.0.1:19092");
        assertEquals("ssl.keystore.location", refused(plaintextWithStores).key(),
                "TLS keys on a PLAINTEXT listener are a mistake, not a hint");
        Map<String, String> badProtocol = ssl("SSL://127.0.0.1:19092");
        badProtocol.put("ssl.enabled.protocols", "TLSv1.1");
        assertEquals("ssl.enabled.protocols", refused(badProtocol).key());
        Map<String, String> pemWithPassword = ssl("SSL://127.0.0.1:19092");
        pemWithPassword.put("ssl.keystore.type", "PEM");
        assertEquals("ssl.keystore.password", refused(pemWithPassword).key(),
                "a PEM file has a key password, not a store password");
        Map<String, String> chainOnly = ssl("SSL://127.0.0.1:19092");
        chainOnly.remove("ssl.keystore.location");
        chainOnly.remove("ssl.keystore.password");
        chainOnly.put("ssl.keystore.type", "PEM");
        chainOnly.put("ssl.keystore.certificate.chain", "-----BEGIN CERTIFICATE-----");
        assertEquals("ssl.keystore.key", refused(chainOnly).key());
        Map<String, String> wrongName = ssl("SSL://127.0.0.1:19092");
        wrongName.put("controller.listener.names", "CONTROLLER");
        assertEquals("controller.listener.names", refused(wrongName).key());
        Map<String, String> badRules = ssl("SSL://127.0.0.1:19092");
        badRules.put("ssl.principal.mapping.rules", "RULE:^CN=(.*$/$1/");
        assertEquals("ssl.principal.mapping.rules", refused(badRules).key());
        Map<String, String> badSuperUsers = ssl("SSL://127.0.0.1:19092");
        badSuperUsers.put("super.users", "node-1");
        assertEquals("super.users", refused(badSuperUsers).key());
    }
}
