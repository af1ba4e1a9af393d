package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.Principal;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.TestPki;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's own Admin client against a SASL listener: PLAIN with the listener's users and SCRAM
 * with the credential store, over SASL_PLAINTEXT and SASL_SSL. The handlers see the SASL
 * user as the caller; a wrong password and a mechanism the listener does not enable fail in
 * the client with Kafka's own exceptions.
 */
class KafkaListenerSaslTest {
    private static final String PLAIN_LOGIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM_LOGIN = "org.apache.kafka.common.security.scram.ScramLoginModule";

    @TempDir
    Path dir;
    private SaslTestListener listener;

    @AfterEach
    void stop() {
        if (listener != null) {
            listener.close();
        }
    }

    @Test
    void plainUserListsTopicsAndIsTheCaller() throws Exception {
        listener = new SaslTestListener(List.of("PLAIN"), Optional.empty());
        try (Admin admin = Admin.create(client("SASL_PLAINTEXT", "PLAIN", PLAIN_LOGIN, "alice", "alice-secret"))) {
            assertEquals(Set.of(SaslTestListener.TOPIC), admin.listTopics().names().get());
        }
        assertEquals(Principal.user("alice"), lastCaller());
    }

    @Test
    void scramSha256UserDescribesTheCluster() throws Exception {
        listener = new SaslTestListener(List.of("SCRAM-SHA-256", "PLAIN"), Optional.empty());
        try (Admin admin = Admin.create(client("SASL_PLAINTEXT", "SCRAM-SHA-256", SCRAM_LOGIN, "alice",
                "alice-secret"))) {
            DescribeClusterResult cluster = admin.describeCluster();
            assertEquals(SaslTestListener.CLUSTER_ID, cluster.clusterId().get());
            assertEquals(1, cluster.nodes().get().size());
            assertEquals(Set.of(SaslTestListener.TOPIC), admin.listTopics().names().get());
        }
        assertEquals(Principal.user("alice"), lastCaller());
    }

    @Test
    void scramSha512UserListsTopics() throws Exception {
        listener = new SaslTestListener(List.of("SCRAM-SHA-512"), Optional.empty());
        try (Admin admin = Admin.create(client("SASL_PLAINTEXT", "SCRAM-SHA-512", SCRAM_LOGIN, "carol",
                "carol-secret"))) {
            assertEquals(Set.of(SaslTestListener.TOPIC), admin.listTopics().names().get());
        }
        assertEquals(Principal.user("carol"), lastCaller());
    }

    @Test
    void wrongPlainPasswordFailsInTheClientAndNoHandlerRuns() {
        listener = new SaslTestListener(List.of("PLAIN"), Optional.empty());
        assertFailsWith(SaslAuthenticationException.class,
                client("SASL_PLAINTEXT", "PLAIN", PLAIN_LOGIN, "alice", "not-her-secret"));
        assertEquals(0, listener.handled.get());
    }

    @Test
    void wrongScramPasswordAndUnknownScramUserFailInTheClient() {
        listener = new SaslTestListener(List.of("SCRAM-SHA-256"), Optional.empty());
        assertFailsWith(SaslAuthenticationException.class,
                client("SASL_PLAINTEXT", "SCRAM-SHA-256", SCRAM_LOGIN, "alice", "not-her-secret"));
        assertFailsWith(SaslAuthenticationException.class,
                client("SASL_PLAINTEXT", "SCRAM-SHA-256", SCRAM_LOGIN, "carol", "carol-secret"));
        assertEquals(0, listener.handled.get());
    }

    @Test
    void aMechanismNotEnabledFailsInTheClient() {
        listener = new SaslTestListener(List.of("SCRAM-SHA-512"), Optional.empty());
        assertFailsWith(UnsupportedSaslMechanismException.class,
                client("SASL_PLAINTEXT", "PLAIN", PLAIN_LOGIN, "alice", "alice-secret"));
        assertEquals(0, listener.handled.get());
    }

    @Test
    void saslSslCallerIsTheSaslUserNotTheCertificate() throws Exception {
        TestPki pki = TestPki.create(dir, "sasl-test-ca");
        Path trust = pki.trustStore("truststore.p12");
        SslSettings ssl = SslSettings.parse(TestPki.settings(pki.nodeKeyStore("node-9"), trust)::get);
        listener = new SaslTestListener(List.of("PLAIN", "SCRAM-SHA-512"),
                Optional.of(KafkaTls.server(ssl, ClientAuthMode.NONE)));
        Properties properties = client("SASL_SSL", "SCRAM-SHA-512", SCRAM_LOGIN, "carol", "carol-secret");
        properties.putAll(TestPki.settings(null, trust));
        properties.put("ssl.endpoint.identification.algorithm", "");
        try (Admin admin = Admin.create(properties)) {
            assertEquals(Set.of(SaslTestListener.TOPIC), admin.listTopics().names().get());
        }
        assertEquals(Principal.user("carol"), lastCaller());
    }

    private Principal lastCaller() {
        KafkaCall last = null;
        for (KafkaCall call : listener.calls) {
            last = call;
        }
        return last.origin().caller().principal();
    }

    private static void assertFailsWith(Class<? extends Throwable> expected, Properties properties) {
        try (Admin admin = Admin.create(properties)) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> admin.listTopics().names().get());
            assertInstanceOf(expected, failure.getCause(), String.valueOf(failure.getCause()));
        }
    }

    private Properties client(String protocol, String mechanism, String loginModule, String user, String password) {
        Properties properties = new Properties();
        properties.putAll(Map.of("bootstrap.servers", "127.0.0.1:" + listener.port(),
                "security.protocol", protocol, "sasl.mechanism", mechanism,
                "sasl.jaas.config", loginModule + " required username=\"" + user + "\" password=\"" + password + "\";",
                "request.timeout.ms", "10000", "default.api.timeout.ms", "20000"));
        return properties;
    }
}
