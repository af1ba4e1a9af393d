package io.metaquorum.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real combined node in this JVM, formatted with {@code --add-scram}: the credential is in
 * its image once its controller has first become active, and Kafka's own {@link Admin} client
 * alters and describes credentials through the node's Kafka-protocol listener; a SASL/SCRAM
 * listener of the same node lets in exactly the users whose credentials its image holds.
 */
class ScramBootstrapNodeTest {
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;
    private final List<String> faults = new CopyOnWriteArrayList<>();
    private NodeServer node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.shutdown(2_000);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited " + WAIT_MS + " ms for " + what);
            Thread.sleep(20);
        }
    }

    @Test
    void aFormattedCredentialReachesTheImageAndKafkasAdminClientManagesCredentials() throws Exception {
        int port = freePort();
        ServerConfig config = ServerConfig.parse(Map.of("process.roles", "controller,broker", "node.id", "1",
                "controller.quorum.voters", "1@127.0.0.1:" + port,
                "listeners", "CONTROLLER://127.0.0.1:" + port + ",EXTERNAL://127.0.0.1:0,SCRAM://127.0.0.1:0",
                "listener.security.protocol.map", "CONTROLLER:PLAINTEXT,EXTERNAL:PLAINTEXT,SCRAM:SASL_PLAINTEXT",
                "sasl.enabled.mechanisms", "SCRAM-SHA-256,SCRAM-SHA-512",
                "controller.listener.names", "CONTROLLER",
                "metadata.log.dir", dir.resolve("metadata").toString(), "log.dirs", dir.resolve("logs").toString()));
        String clusterId = ClusterIds.random();
        StorageFormatter.format(config, clusterId, Optional.empty(), ScramArguments.parse(
                List.of("SCRAM-SHA-256=[name=alice,password=alice-secret,iterations=8192]"), new SplittableRandom(5)),
                false, line -> { });

        node = NodeServer.start(config, clusterId, (message, cause) -> faults.add(message));
        await("alice's credential in the image", () -> node.loader().image().scram()
                .credential("alice", ScramMechanism.SCRAM_SHA_256).isPresent());
        MetadataImage image = node.loader().image();
        StoredScramCredential alice = image.scram().credential("alice", ScramMechanism.SCRAM_SHA_256).orElseThrow();
        assertEquals(8192, alice.iterations());
        assertEquals(ScramKeys.credential(ScramMechanism.SCRAM_SHA_256, alice.salt(), ScramKeys.saltedPassword(
                ScramMechanism.SCRAM_SHA_256, "alice-secret", alice.salt(), 8192), 8192), alice,
                "the credential checks alice's password");

        assertTrue(logsInWith("SCRAM-SHA-256", "alice", "alice-secret"), "the formatted credential lets alice in");
        assertFalse(logsInWith("SCRAM-SHA-256", "alice", "not-her-secret"));

        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + node.kafkaListeners().get(0).address().port());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT_MS);
        try (Admin admin = Admin.create(properties)) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("bob",
                    new ScramCredentialInfo(org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512, 8192),
                    "bob-secret"), new UserScramCredentialDeletion("alice",
                    org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_256)))
                    .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
            await("the alteration in the image", () -> node.loader().image().scram().users().equals(List.of("bob")));
            Map<String, UserScramCredentialsDescription> described = admin.describeUserScramCredentials().all()
                    .get(WAIT_MS, TimeUnit.MILLISECONDS);
            assertEquals(List.of(new ScramCredentialInfo(org.apache.kafka.clients.admin.ScramMechanism.SCRAM_SHA_512,
                    8192)), described.get("bob").credentialInfos());
            assertEquals(1, described.size());
        }
        StoredScramCredential bob = node.loader().image().scram().credential("bob", ScramMechanism.SCRAM_SHA_512)
                .orElseThrow();
        assertEquals(ScramKeys.credential(ScramMechanism.SCRAM_SHA_512, bob.salt(), ScramKeys.saltedPassword(
                ScramMechanism.SCRAM_SHA_512, "bob-secret", bob.salt(), 8192), 8192), bob,
                "what Kafka's client salted is a credential for bob's password");
        assertTrue(logsInWith("SCRAM-SHA-512", "bob", "bob-secret"), "a credential made through the API lets bob in");
        assertFalse(logsInWith("SCRAM-SHA-256", "alice", "alice-secret"), "a deleted credential lets nobody in");
        assertEquals(List.of(), faults);
    }

    /** Whether Kafka's Admin client, as {@code user} with SASL/{@code mechanism}, gets an answer on the SCRAM listener. */
    private boolean logsInWith(String mechanism, String user, String password) throws Exception {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + node.kafkaListeners().get(1).address().port());
        properties.put(AdminClientConfig.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        properties.put(SaslConfigs.SASL_MECHANISM, mechanism);
        properties.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule "
                + "required username=\"" + user + "\" password=\"" + password + "\";");
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT_MS);
        try (Admin admin = Admin.create(properties)) {
            admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SaslAuthenticationException) {
                return false;
            }
            throw e;
        }
    }
}
