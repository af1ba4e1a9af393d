package io.metaquorum.server;

import io.metaquorum.net.HostPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.access.NodeAccess;
import io.metaquorum.raft.RaftTimeouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
    static Map<String, String> valid() {
        Map<String, String> raw = new HashMap<>();
        raw.put("process.roles", "controller");
        raw.put("node.id", "2");
        raw.put("controller.quorum.voters", "1@127.0.0.1:19091, 2@127.0.0.1:19092,3@127.0.0.1:19093");
        raw.put("listeners", "127.0.0.1:19092");
        raw.put("metadata.log.dir", "/tmp/mq/node-2/metadata");
        return raw;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> raw = valid();
        if (value == null) {
            raw.remove(key);
        } else {
            raw.put(key, value);
        }
        return raw;
    }

    private static ConfigException refused(Map<String, String> raw) {
        return assertThrows(ConfigException.class, () -> ServerConfig.parse(raw));
    }

    @Test
    void parsesAValidControllerConfigWithKafkaDefaults() {
        ServerConfig config = ServerConfig.parse(valid());
        assertEquals(2, config.nodeId());
        assertEquals(List.of("controller"), config.processRoles());
        assertEquals(new HostPort("127.0.0.1", 19093), config.voters().get(3));
        assertEquals(List.of(1, 2, 3), List.copyOf(config.voters().keySet()));
        assertEquals(new HostPort("127.0.0.1", 19092), config.listener());
        assertEquals(Path.of("/tmp/mq/node-2/metadata"), config.metadataLogDir());
        assertEquals(new RaftTimeouts(1000, 2000, 1000, 0, 2000, 20, 500), config.raftTimeouts());
        assertEquals(20_971_520L, config.snapshotTriggerBytes());
        assertEquals(500, config.idleIntervalMs());
        assertEquals(14_400_000L, config.longValue("delete.stale.topic.delay.ms"));
    }

    @Test
    void acceptsTheKeysOfLaterFeaturesTypeChecked() {
        Map<String, String> raw = valid();
        raw.put("broker.rack", "rack-a");
        raw.put("num.partitions", "3");
        raw.put("create.topic.policy.class.name", "com.example.Policy");
        raw.put("super.users", "User:admin;User:ops");
        raw.put("ssl.client.auth", "required");
        raw.put("metadata.max.idle.interval.ms", "250");
        raw.put("controller.quorum.request.timeout.ms", "3000");
        raw.put("controller.quorum.retry.backoff.ms", "50");
        ServerConfig config = ServerConfig.parse(raw);
        assertEquals(3, config.intValue("num.partitions"));
        assertEquals(250, config.idleIntervalMs());
        assertEquals(3000, config.raftTimeouts().requestTimeoutMs());
    }

    @Test
    void anUnknownKeyIsNamed() {
        ConfigException e = refused(with("controller.listener.name", "CONTROLLER"));
        assertEquals("controller.listener.name", e.key());
        assertEquals("controller.listener.name: unknown configuration key", e.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeIsNamed() {
        assertEquals("node.id: expected an integer, got 'two'", refused(with("node.id", "two")).getMessage());
        assertEquals("authorizer.enabled: expected true or false, got 'yes'",
                refused(with("authorizer.enabled", "yes")).getMessage());
        assertEquals("controller.quorum.election.timeout.ms",
                refused(with("controller.quorum.election.timeout.ms", "1s")).key());
        assertEquals("delete.stale.topic.delay.ms", refused(with("delete.stale.topic.delay.ms", "4h")).key());
        assertEquals("ssl.client.auth", refused(with("ssl.client.auth", "sometimes")).key());
        assertEquals("create.topic.policy.class.name",
                refused(with("create.topic.policy.class.name", "not a class")).key());
    }

    @Test
    void aMissingRequiredKeyIsNamed() {
        for (String key : List.of("process.roles", "node.id", "controller.quorum.voters", "listeners",
                "metadata.log.dir")) {
            ConfigException e = refused(with(key, null));
            assertEquals(key, e.key());
            assertEquals(key + ": is required but not set", e.getMessage());
        }
        assertEquals("node.id", refused(with("node.id", "  ")).key());
    }

    @Test
    void badRangesAndRelationsAreNamed() {
        assertEquals("process.roles", refused(with("process.roles", "controller,leader")).key());
        assertEquals("node.id", refused(with("node.id", "-1")).key());
        Map<String, String> joining = with("node.id", "7");
        joining.put("listeners", "127.0.0.1:19097");
        assertEquals(7, ServerConfig.parse(joining).nodeId(), "a controller not yet a voter joins as an observer");
        joining.put("listeners", "127.0.0.1:0");
        assertEquals("listeners", refused(joining).key(), "a joining controller needs a fixed port");
        assertEquals("listeners", refused(with("listeners", "127.0.0.1:19093")).key(), "port differs from its voter entry");
        assertEquals("listeners", refused(with("listeners", "PLAINTEXT")).key());
        assertEquals("controller.quorum.voters", refused(with("controller.quorum.voters", "1@127.0.0.1")).key());
        assertEquals("controller.quorum.voters",
                refused(with("controller.quorum.voters", "2@h:1,2@h:2")).key());
        assertEquals("controller.quorum.fetch.wait.max.ms",
                refused(with("controller.quorum.fetch.timeout.ms", "400")).key());
        assertEquals("controller.quorum.election.timeout.ms",
                refused(with("controller.quorum.election.timeout.ms", "0")).key());
        assertEquals("metadata.max.idle.interval.ms", refused(with("metadata.max.idle.interval.ms", "0")).key());
        assertEquals("log.dirs", refused(with("process.roles", "broker")).key());
        assertEquals("broker.heartbeat.interval.ms", refused(with("broker.session.timeout.ms", "1000")).key());
    }

    @Test
    void portZeroIsForNodesNobodyDialsFromTheVotersList() {
        Map<String, String> broker = with("process.roles", "broker");
        broker.put("listeners", "127.0.0.1:0");
        broker.put("log.dirs", "/tmp/mq/logs");
        assertEquals(new HostPort("127.0.0.1", 0), ServerConfig.parse(broker).listener(), "a broker may bind any port");
        assertEquals("listeners", refused(with("listeners", "127.0.0.1:0")).key(),
                "a voter is dialled at the port of its entry, so it binds that one");
        assertEquals("controller.quorum.voters", refused(with("controller.quorum.voters", "2@127.0.0.1:0")).key(),
                "an entry with port 0 would name nowhere");
    }

    @Test
    void theAuthorizerIsBuiltFromItsThreeKeys() {
        Map<String, String> on = with("authorizer.enabled", "true");
        on.put("super.users", "User:CN=node-1; User:admin;");
        on.put("allow.everyone.if.no.acl.found", "true");
        NodeAccess access = NodeSecurity.access(ServerConfig.parse(on));
        assertTrue(access.isEnabled());
        assertEquals(java.util.Set.of("User:CN=node-1", "User:admin"), access.settings().superUsers());
        assertTrue(access.settings().allowEveryoneIfNoAclFound());
        assertFalse(NodeSecurity.access(ServerConfig.parse(with("super.users", "User:admin"))).isEnabled(),
                "off by default, as in Kafka");
    }

    @Test
    void logDirsMayNotHoldTheMetadataLogDir() {
        Map<String, String> broker = with("process.roles", "broker");
        broker.put("log.dirs", "/tmp/mq/logs," + broker.get("metadata.log.dir"));
        ConfigException e = assertThrows(ConfigException.class, () -> ServerConfig.parse(broker));
        assertEquals("log.dirs", e.key());
    }

    @Test
    void loadsAPropertiesFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("server.properties");
        StringBuilder text = new StringBuilder("# a comment\n");
        valid().forEach((key, value) -> text.append(key).append(" = ").append(value).append("  \n"));
        Files.writeString(file, text);
        assertEquals(2, ServerConfig.load(file).nodeId());
        ConfigException missing = assertThrows(ConfigException.class, () -> ServerConfig.load(dir.resolve("nope")));
        assertTrue(missing.getMessage().contains("cannot read configuration file"), missing.getMessage());
    }
}
