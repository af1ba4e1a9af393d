package io.metaquorum.raft.transport.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.metaquorum.protocol.VoteResponse;
import io.metaquorum.raft.message.RaftRequest;
import io.metaquorum.raft.message.RaftResponse;
import io.metaquorum.raft.message.RequestFailure;
import io.metaquorum.raft.transport.grpc.TestCertificates.Identity;
import io.metaquorum.raft.transport.grpc.logging.CapturedStderr;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node with TLS and required client certificates, called by clients that get each part
 * wrong: each refused connection is one WARN naming the 127.0.0.1 peer and what was wrong,
 * and a client that gets it right is served and leaves no WARN.
 */
class TlsRefusedConnectionsLogTest {
    private static final int CLIENT_ID = RaftPayloads.SENDER;
    private static final int SERVER_ID = 2;
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);

    private static Identity ca;
    private static Identity serverIdentity;
    private static Identity trustedClient;

    @BeforeAll
    static void makeCertificates() throws GeneralSecurityException {
        ca = TestCertificates.certificateAuthority("test-ca");
        serverIdentity = TestCertificates.leaf("node-2", ca);
        trustedClient = TestCertificates.leaf("node-1", ca);
    }

    private static GrpcConnectionSettings tlsServer() throws GeneralSecurityException {
        ServerCredentials server = TlsServerCredentials.newBuilder().keyManager(serverIdentity.keyManagers())
                .trustManager(ca.asTrustAnchor()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE).build();
        return GrpcConnectionSettings.DEFAULTS.withSecurity(new TransportSecurity("SSL", server,
                clientWith(trustedClient), TransportSecurity.PLAINTEXT.identity()));
    }

    /** A TLS client that trusts the test CA and presents {@code identity}'s certificate (none if null). */
    private static ChannelCredentials clientWith(Identity identity) throws GeneralSecurityException {
        TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder().trustManager(ca.asTrustAnchor());
        if (identity != null) {
            builder.keyManager(identity.keyManagersIgnoringRequestedIssuers());
        }
        return builder.build();
    }

    private static GrpcConnectionSettings tlsClient(Identity identity) throws GeneralSecurityException {
        ChannelCredentials channel = clientWith(identity);
        return GrpcConnectionSettings.DEFAULTS.withSecurity(
                new TransportSecurity("SSL", TransportSecurity.PLAINTEXT.server(), channel,
                        TransportSecurity.PLAINTEXT.identity()));
    }

    /**
     * Starts a server with {@code serverSettings}, has a client with {@code clientSettings}
     * send it one vote and waits for the outcome, closes both and returns the log lines.
     */
    private static List<String> oneVote(GrpcConnectionSettings serverSettings, GrpcConnectionSettings clientSettings,
                                        boolean expectServed) throws InterruptedException {
        RecordingSink serverSink = new RecordingSink();
        RecordingSink clientSink = new RecordingSink();
        try (CapturedStderr err = new CapturedStderr()) {
            GrpcRaftTransport server = GrpcRaftTransport.start(new GrpcTransportConfig(SERVER_ID,
                    List.of(ANY_LOOPBACK_PORT), Map.of(), 10_000, serverSettings), serverSink, List.of());
            GrpcRaftTransport client = null;
            try {
                client = GrpcRaftTransport.start(new GrpcTransportConfig(CLIENT_ID, List.of(),
                        Map.of(SERVER_ID, server.boundAddresses().get(0)), 10_000, clientSettings), clientSink, List.of());
                client.send(new RaftRequest(CLIENT_ID, SERVER_ID, 7, RaftPayloads.vote()));
                if (expectServed) {
                    RaftRequest inbound = serverSink.next(RaftRequest.class);
                    server.send(new RaftResponse(SERVER_ID, CLIENT_ID, inbound.correlationId(),
                            VoteResponse.getDefaultInstance()));
                    assertEquals(7, clientSink.next(RaftResponse.class).correlationId());
                } else {
                    assertEquals(RequestFailure.Reason.UNREACHABLE, clientSink.next(RequestFailure.class).reason());
                }
            } finally {
                if (client != null) {
                    client.close();
                }
                // Returns once the server's event loops have ended, so every close has been logged.
                server.close();
            }
            return err.lines();
        }
    }

    private static void assertOneRefusal(String reason, List<String> lines) {
        List<String> warnings = RefusedConnectionLines.warnings(lines);
        assertEquals(1, warnings.size(), String.join("\n", lines));
        RefusedConnectionLines.assertEachNamesALoopbackPeerAnd(reason, warnings);
        RefusedConnectionLines.assertNoStackTrace(lines);
    }

    @Test
    void aPlaintextClientOnTheTlsPortIsOneWarning() throws Exception {
        assertOneRefusal("plaintext client on a TLS port",
                oneVote(tlsServer(), GrpcConnectionSettings.DEFAULTS, false));
    }

    @Test
    void aTlsClientWithoutACertificateIsOneWarning() throws Exception {
        assertOneRefusal("TLS handshake failed: no client certificate", oneVote(tlsServer(), tlsClient(null), false));
    }

    @Test
    void aClientCertificateFromAnotherCaIsOneWarning() throws Exception {
        Identity stranger = TestCertificates.leaf("stranger", TestCertificates.certificateAuthority("other-ca"));
        assertOneRefusal("TLS handshake failed: certificate signed by an unknown CA",
                oneVote(tlsServer(), tlsClient(stranger), false));
    }

    @Test
    void anExpiredClientCertificateIsOneWarning() throws Exception {
        Instant now = Instant.now();
        Identity expired = TestCertificates.leaf("expired", ca, now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(2)));
        assertOneRefusal("TLS handshake failed: certificate expired", oneVote(tlsServer(), tlsClient(expired), false));
    }

    /**
     * A raw socket, not a gRPC client: a plaintext server speaks first (its HTTP/2 settings),
     * and a TLS client that reads them before its ClientHello leaves aborts with a reset,
     * which the server may see before the ClientHello; such a connection sent nothing the
     * server read, and is not logged. Here the ClientHello always arrives.
     */
    @Test
    void aTlsClientHelloOnAPlaintextPortIsOneWarning() throws Exception {
        byte[] clientHello = clientHello();
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            RaftGrpcServer server = RaftGrpcServer.start(SERVER_ID, List.of(ANY_LOOPBACK_PORT), List.of(),
                    GrpcConnectionSettings.DEFAULTS);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.boundAddresses().get(0).getPort())) {
                socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(RecordingSink.WAIT_SECONDS));
                socket.getOutputStream().write(clientHello);
                try {
                    while (socket.getInputStream().read() >= 0) {
                        // the server's settings and GOAWAY, until it closes
                    }
                } catch (SocketException reset) {
                    // closed with our bytes unread: closed too
                }
            } finally {
                server.close(() -> { });
            }
            lines = err.lines();
        }
        assertOneRefusal("TLS client on a plaintext port", lines);
    }

    /** The first flight of a JDK TLS client. */
    private static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("127.0.0.1", 1);
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    @Test
    void aClientWithATrustedCertificateIsServedAndLeavesNoWarning() throws Exception {
        List<String> lines = oneVote(tlsServer(), tlsClient(trustedClient), true);

        assertEquals(List.of(), RefusedConnectionLines.warnings(lines), String.join("\n", lines));
        RefusedConnectionLines.assertNoStackTrace(lines);
    }
}
