package io.metaquorum.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.metaquorum.metadata.tool.QuorumReport;
import io.metaquorum.net.HostPort;
import io.metaquorum.process.MetaquorumScripts.ToolRun;
import io.metaquorum.protocol.BrokerLifecycleServiceGrpc;
import io.metaquorum.protocol.BrokerRegistrationRequest;
import io.metaquorum.protocol.RaftServiceGrpc;
import io.metaquorum.protocol.VoteRequest;
import io.metaquorum.raft.transport.grpc.QuorumClient;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.TestPki;
import io.metaquorum.security.grpc.TlsCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster with TLS and client certificates on every listener, through the real binaries:
 * three controllers and a broker, each with its own certificate from one CA. It elects,
 * registers the broker, serves the tools (with {@code --command-config}) and forwards their
 * writes; strangers (a node certificate from another CA, no certificate, plaintext, random
 * bytes) are refused in the handshake without disturbing the quorum; and every certificate is
 * rotated to a new CA with no election.
 */
class SecureClusterProcessTest {
    private static final int BROKER = 4;
    private static final long CALL_TIMEOUT_MS = 5_000;

    @TempDir
    Path dir;
    private ControllerCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private Path keyStore(int nodeId) {
        return dir.resolve("stores").resolve("node-" + nodeId + ".p12");
    }

    private static ChannelCredentials credentials(Path keyStore, Path trustStore) {
        Map<String, String> settings = TestPki.settings(keyStore, trustStore);
        return TlsCredentials.channel(SslSettings.parse(settings::get));
    }

    private Path clientConfig(Path keyStore, Path trustStore) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("security.protocol", "SSL");
        settings.putAll(TestPki.settings(keyStore, trustStore));
        Path file = dir.resolve("client-" + keyStore.getFileName() + ".properties");
        Files.writeString(file, settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")) + "\n");
        return file;
    }

    private String address(int nodeId) {
        return cluster.node(nodeId).address().toString();
    }

    private static Status.Code describeFails(HostPort node, ChannelCredentials credentials) {
        try (QuorumClient client = new QuorumClient(node.toAddress(), CALL_TIMEOUT_MS, credentials)) {
            return assertThrows(StatusRuntimeException.class, client::describeMetadataQuorum).getStatus().getCode();
        }
    }

    private static boolean describes(HostPort node, ChannelCredentials credentials) {
        try (QuorumClient client = new QuorumClient(node.toAddress(), CALL_TIMEOUT_MS, credentials)) {
            client.describeMetadataQuorum();
            return true;
        } catch (StatusRuntimeException e) {
            return false;
        }
    }

    private static void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ControllerCluster.WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + ControllerCluster.WAIT_MS + " ms: " + what);
            }
        }
    }

    @Test
    void aSecureClusterServesItsOwnRefusesStrangersAndRotatesEveryCertificateWithoutAnElection(TestInfo test)
            throws IOException {
        TestPki pki = TestPki.create(dir.resolve("stores"), "cluster-ca");
        Path trust = pki.trustStore("truststore.p12");
        for (int id = 1; id <= BROKER; id++) {
            pki.nodeKeyStore("node-" + id);
        }
        Path admin = pki.clientKeyStore("admin");
        Path adminConfig = clientConfig(admin, trust);
        ChannelCredentials adminCredentials = credentials(admin, trust);
        Map<String, String> settings = Map.of("ssl.client.auth", "required",
                "super.users", "User:CN=node-1;User:CN=node-2;User:CN=node-3;User:CN=node-4;User:CN=admin");
        cluster = ControllerCluster.startSecure(ProcessTestNames.of(test), settings, 1, new ControllerCluster.Tls(
                "SSL://", id -> TestPki.settings(keyStore(id), trust), adminCredentials));

        // Elects, registers the broker, serves the tools and forwards a write from the broker.
        QuorumReport elected = cluster.awaitLeaderReport("a leader over TLS", r -> r.leaderId() > 0);
        await("broker 4 registered and unfenced", () -> cluster.runTool("mq-metadata", "brokers",
                "--bootstrap-server", address(1), "--command-config", adminConfig.toString(),
                "--min-unfenced", "1").exitCode() == 0);
        ToolRun created = cluster.runTool("mq-topics", "--bootstrap-server", address(BROKER), "--command-config",
                adminConfig.toString(), "--create", "--topic", "secure", "--partitions", "1",
                "--replication-factor", "1");
        assertEquals(0, created.exitCode(), created.err());
        assertTrue(created.out().contains("Created topic secure."), created.out());
        ToolRun quorum = cluster.runTool("mq-metadata", "quorum", "--bootstrap-controller", address(2),
                "--command-config", adminConfig.toString());
        assertEquals(0, quorum.exitCode(), quorum.err());

        // Strangers: refused in the handshake, each leaving a WARN that names the peer.
        long[] marks = ControllerCluster.NODE_IDS.stream().mapToLong(id -> cluster.node(id).logMark()).toArray();
        HostPort leader = cluster.node(elected.leaderId()).address();
        TestPki rogue = TestPki.create(dir.resolve("rogue"), "rogue-ca");
        ChannelCredentials rogueNode = credentials(rogue.nodeKeyStore("node-2"), rogue.trustStore("rogue.p12", pki));
        assertEquals(Status.Code.UNAVAILABLE, describeFails(leader, rogueNode), "a node certificate from another CA");
        assertEquals(Status.Code.UNAVAILABLE, rogueCall(leader, rogueNode, true), "... cannot vote");
        assertEquals(Status.Code.UNAVAILABLE, rogueCall(leader, rogueNode, false), "... nor register as a broker");
        assertEquals(Status.Code.UNAVAILABLE, describeFails(leader, credentials(null, trust)), "no certificate");
        assertEquals(Status.Code.UNAVAILABLE, describeFails(leader, io.grpc.InsecureChannelCredentials.create()),
                "plaintext");
        String refusedLog = cluster.node(elected.leaderId()).logSince(marks[elected.leaderId() - 1]);
        assertTrue(refusedLog.contains("127.0.0.1"), refusedLog);
        assertFalse(refusedLog.contains("\tat "), "no stack trace:\n" + refusedLog);

        // 200 connections of random bytes: a few log lines, no stack trace, no election.
        int probed = elected.leaderId() == 1 ? 2 : 1;
        long before = cluster.node(probed).logMark();
        sendGarbage(cluster.node(probed).address(), 200);
        String garbageLog = cluster.node(probed).logSince(before);
        assertTrue(garbageLog.lines().count() <= 5, "at most a few lines for 200 garbage connections:\n" + garbageLog);
        assertFalse(garbageLog.contains("\tat "), "no stack trace:\n" + garbageLog);

        // Rotation: every node trusts a second CA, then gets a certificate from it; new
        // connections use them, the kept ones carry on, and nobody starts an election.
        TestPki next = TestPki.create(dir.resolve("next"), "next-ca");
        TestPki.rotate(pki.trustStore("both.p12", next), trust);
        for (int id = 1; id <= BROKER; id++) {
            TestPki.rotate(next.nodeKeyStore("node-" + id), keyStore(id));
        }
        ChannelCredentials onlyNext = credentials(next.clientKeyStore("operator"), next.trustStore("only-next.p12"));
        for (int id = 1; id <= BROKER; id++) {
            HostPort node = cluster.node(id).address();
            await("node " + id + " serves the new CA's client with its new certificate",
                    () -> describes(node, onlyNext));
        }
        ToolRun afterRotation = cluster.runTool("mq-topics", "--bootstrap-server", address(BROKER),
                "--command-config", adminConfig.toString(), "--create", "--topic", "rotated", "--partitions", "1",
                "--replication-factor", "1");
        assertEquals(0, afterRotation.exitCode(), afterRotation.err());
        QuorumReport now = cluster.awaitLeaderReport("the same leader", r -> r.leaderId() > 0);
        assertEquals(elected.leaderId(), now.leaderId(), "no election through all of it");
        assertEquals(elected.leaderEpoch(), now.leaderEpoch(), "no election through all of it");
    }

    /** A Vote (raft) or a RegisterBroker (lifecycle) from {@code credentials}: the status it fails with. */
    private static Status.Code rogueCall(HostPort node, ChannelCredentials credentials, boolean vote) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(node.toAddress(), credentials).build();
        try {
            return assertThrows(StatusRuntimeException.class, () -> {
                if (vote) {
                    RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                            .vote(VoteRequest.getDefaultInstance());
                } else {
                    BrokerLifecycleServiceGrpc.newBlockingStub(channel)
                            .withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                            .registerBroker(BrokerRegistrationRequest.getDefaultInstance());
                }
            }).getStatus().getCode();
        } finally {
            channel.shutdownNow();
        }
    }

    /** {@code count} connections that each send random bytes and read until the node closes them. */
    private static void sendGarbage(HostPort node, int count) {
        Random random = new Random(42);
        for (int i = 0; i < count; i++) {
            try (Socket socket = new Socket(node.host(), node.port())) {
                socket.setSoTimeout((int) CALL_TIMEOUT_MS);
                byte[] bytes = new byte[64 + random.nextInt(512)];
                random.nextBytes(bytes);
                OutputStream out = socket.getOutputStream();
                out.write(bytes);
                out.flush();
                // End of input: a node waiting for the rest of what looks like a record sees there is none.
                socket.shutdownOutput();
                InputStream in = socket.getInputStream();
                while (in.read() >= 0) {
                    // until the node closes the connection
                }
            } catch (java.net.SocketTimeoutException e) {
                throw new AssertionError("node " + node + " kept a garbage connection open for " + CALL_TIMEOUT_MS
                        + " ms", e);
            } catch (IOException e) {
                // A reset is a close too.
            }
        }
    }
}
