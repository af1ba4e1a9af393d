package io.metaquorum.server.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.metaquorum.node.kafka.KafkaApiHandler;
import io.metaquorum.node.kafka.KafkaApis;
import io.metaquorum.node.kafka.KafkaCall;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.Principal;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An SSL Kafka listener with {@code ssl.client.auth=required}, built from the same ssl.*
 * settings as the gRPC listener: a client certificate's subject becomes the handler's
 * principal through {@code ssl.principal.mapping.rules}; a certificate no rule maps, or none,
 * gets the connection closed before any handler runs.
 */
class KafkaListenerTlsTest {
    private static final long WAIT_SECONDS = 10;

    @TempDir
    Path dir;
    private final BlockingQueue<KafkaCall> calls = new ArrayBlockingQueue<>(8);
    private KafkaListenerServer server;
    private TestPki pki;
    private Path trust;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(String mappingRules) {
        pki = TestPki.create(dir, "kafka-test-ca");
        trust = pki.trustStore("truststore.p12");
        SslSettings ssl = SslSettings.parse(TestPki.settings(pki.nodeKeyStore("node-9"), trust)::get);
        KafkaApiHandler recording = (call, request, reply) -> {
            calls.add(call);
            reply.accept(new DescribeClusterResponse(new DescribeClusterResponseData()));
        };
        server = TestListeners.start(KafkaApis.withApiVersions(Map.of(ApiKeys.DESCRIBE_CLUSTER, recording)),
                Optional.of(KafkaTls.server(ssl, ClientAuthMode.REQUIRED)), mappingRules);
    }

    private WireClient connect(Path keyStore) throws Exception {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        KeyManagerFactory keys = KeyManagerFactory.getInstance("PKIX");
        keys.init(keyStore == null ? null : load(keyStore), TestPki.PASSWORD.toCharArray());
        TrustManagerFactory trusted = TrustManagerFactory.getInstance("PKIX");
        trusted.init(load(trust));
        context.init(keyStore == null ? null : keys.getKeyManagers(), trusted.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket();
        socket.connect(new InetSocketAddress("127.0.0.1", server.boundAddress().port()), WireClient.READ_TIMEOUT_MS);
        return new WireClient(socket);
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, TestPki.PASSWORD.toCharArray());
        }
        return store;
    }

    private static RequestHeader describeCluster(WireClient client) throws IOException {
        short version = ApiKeys.DESCRIBE_CLUSTER.latestVersion();
        RequestHeader header = WireClient.header(ApiKeys.DESCRIBE_CLUSTER, version, 1);
        client.send(header, new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build(version));
        return header;
    }

    @Test
    void theClientCertificatesSubjectIsTheCallersPrincipal() throws Exception {
        start("DEFAULT");
        try (WireClient client = connect(pki.clientKeyStore("alice"))) {
            assertNotNull(client.receive(describeCluster(client)));
        }
        KafkaCall call = calls.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(call);
        assertEquals(Principal.user("CN=alice"), call.origin().caller().principal());
        assertEquals("127.0.0.1", call.origin().caller().host());
    }

    @Test
    void theMappingRulesNameThePrincipal() throws Exception {
        start("RULE:^CN=([^,]+)$/$1/U,DEFAULT");
        try (WireClient client = connect(pki.clientKeyStore("alice"))) {
            assertNotNull(client.receive(describeCluster(client)));
        }
        assertEquals(Principal.user("ALICE"), calls.poll(WAIT_SECONDS, TimeUnit.SECONDS).origin().caller().principal());
    }

    @Test
    void aSubjectNoRuleMapsIsClosedBeforeAnyHandlerRuns() throws Exception {
        start("RULE:^CN=(node-[0-9]+)$/$1/");
        try (WireClient client = connect(pki.clientKeyStore("alice"))) {
            describeCluster(client);
            assertTrue(client.readFrame().isEmpty(), "closed, not answered");
        }
        assertTrue(calls.isEmpty());
    }

    @Test
    void aClientWithoutCertificateIsRefusedInTheHandshake() throws Exception {
        start("DEFAULT");
        try (WireClient client = connect(null)) {
            try {
                describeCluster(client);
                assertTrue(client.readFrame().isEmpty(), "closed, not answered");
            } catch (IOException refused) {
                // TLS 1.3 may report the refusal on the write instead of the read.
            }
        }
        assertTrue(calls.isEmpty());
    }
}
