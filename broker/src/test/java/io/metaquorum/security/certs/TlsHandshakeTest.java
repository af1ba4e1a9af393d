package io.metaquorum.security.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * Real TLS 1.3 handshakes with mutual authentication over loopback, with SSLContexts built
 * from the PKCS12 stores the library makes, the client checking the server's name as Kafka's
 * default {@code ssl.endpoint.identification.algorithm=https} does.
 */
class TlsHandshakeTest {
    private static final char[] PASSWORD = "store-pw".toCharArray();
    private static final int TIMEOUT_MS = 10_000;

    private final CertificateAuthority ca = TestPki.ca("test-ca");

    /** What each side saw: the peer's subject, or the failure. */
    private record Outcome(String serverSawPeer, String clientSawPeer, Exception serverFailure,
                           Exception clientFailure) {
        boolean failed() {
            return serverFailure != null || clientFailure != null;
        }
    }

    @Test
    void nodeAndClientCertificatesFromOneCaCompleteAMutualTls13Handshake() throws Exception {
        Outcome outcome = handshake(TestPki.node(ca, "node-1"), TestPki.client(ca, "alice"), ca);
        assertNull(outcome.serverFailure());
        assertNull(outcome.clientFailure());
        assertEquals("CN=alice", outcome.serverSawPeer());
        assertEquals("CN=node-1", outcome.clientSawPeer());
    }

    @Test
    void twoNodesAuthenticateEachOther() throws Exception {
        Outcome outcome = handshake(TestPki.node(ca, "node-1"), TestPki.node(ca, "node-2"), ca);
        assertFalse(outcome.failed(), String.valueOf(outcome));
        assertEquals("CN=node-2", outcome.serverSawPeer());
    }

    @Test
    void aServerCertificateFromAnotherCaIsRefused() throws Exception {
        IssuedCertificate foreign = TestPki.node(TestPki.ca("other-ca"), "node-1");
        assertRefused(handshake(foreign, TestPki.client(ca, "alice"), ca));
    }

    @Test
    void aClientCertificateFromAnotherCaIsRefused() throws Exception {
        IssuedCertificate foreign = TestPki.client(TestPki.ca("other-ca"), "mallory");
        assertRefused(handshake(TestPki.node(ca, "node-1"), foreign, ca));
    }

    @Test
    void anExpiredServerCertificateIsRefused() throws Exception {
        IssuedCertificate expired = ca.issue(CertificateRequest.node("node-1",
                SubjectAltName.parseList("IP:127.0.0.1"), TestPki.expired()), TestPki.RANDOM);
        assertRefused(handshake(expired, TestPki.client(ca, "alice"), ca));
    }

    @Test
    void aServerCertificateThatDoesNotNameTheDialledAddressIsRefused() throws Exception {
        IssuedCertificate elsewhere = ca.issue(CertificateRequest.node("node-1",
                List.of(SubjectAltName.dns("node-1.example.com")), TestPki.VALID_NOW), TestPki.RANDOM);
        assertRefused(handshake(elsewhere, TestPki.client(ca, "alice"), ca));
    }

    @Test
    void aClientCertificateCannotServeEvenWithTheRightName() throws Exception {
        IssuedCertificate clientOnly = ca.issue(new CertificateRequest(CertificateRequest.subject("node-1", ""),
                SubjectAltName.parseList("IP:127.0.0.1"), CertificatePurpose.CLIENT, KeyType.EC, TestPki.VALID_NOW),
                TestPki.RANDOM);
        assertRefused(handshake(clientOnly, TestPki.client(ca, "alice"), ca));
    }

    private static void assertRefused(Outcome outcome) {
        assertTrue(outcome.failed(), "the handshake should have failed: " + outcome);
        // The side that refuses fails with an SSLException; the other may see only a closed connection.
        assertTrue(isTlsFailure(outcome.serverFailure()) || isTlsFailure(outcome.clientFailure()),
                String.valueOf(outcome));
    }

    private static boolean isTlsFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The server accepts one connection and echoes one byte; the client sends it. With TLS 1.3 the
     * server checks the client's certificate after the client's handshake has returned, so only
     * the byte round trip shows that both sides accepted each other.
     */
    private static Outcome handshake(IssuedCertificate server, IssuedCertificate client, CertificateAuthority trusted)
            throws Exception {
        SSLContext serverContext = context(server, trusted);
        SSLContext clientContext = context(client, trusted);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (SSLServerSocket listener = (SSLServerSocket) serverContext.getServerSocketFactory()
                .createServerSocket(0, 1, loopback)) {
            listener.setEnabledProtocols(new String[] {"TLSv1.3"});
            listener.setNeedClientAuth(true);
            listener.setSoTimeout(TIMEOUT_MS);
            CompletableFuture<String> serverSide = CompletableFuture.supplyAsync(() -> serve(listener));
            String clientSawPeer = null;
            Exception clientFailure = null;
            try (SSLSocket socket = (SSLSocket) clientContext.getSocketFactory().createSocket()) {
                socket.connect(new InetSocketAddress(loopback, listener.getLocalPort()), TIMEOUT_MS);
                socket.setSoTimeout(TIMEOUT_MS);
                socket.setEnabledProtocols(new String[] {"TLSv1.3"});
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                socket.setSSLParameters(parameters);
                socket.startHandshake();
                socket.getOutputStream().write(42);
                socket.getOutputStream().flush();
                if (socket.getInputStream().read() != 42) {
                    throw new IOException("the server did not echo the byte");
                }
                assertEquals("TLSv1.3", socket.getSession().getProtocol());
                clientSawPeer = socket.getSession().getPeerPrincipal().getName();
            } catch (IOException e) {
                clientFailure = e;
            }
            try {
                return new Outcome(serverSide.get(2 * TIMEOUT_MS, TimeUnit.MILLISECONDS), clientSawPeer, null,
                        clientFailure);
            } catch (ExecutionException e) {
                return new Outcome(null, clientSawPeer, (Exception) e.getCause(), clientFailure);
            }
        }
    }

    private static String serve(SSLServerSocket listener) {
        try (SSLSocket socket = (SSLSocket) listener.accept()) {
            socket.setSoTimeout(TIMEOUT_MS);
            int received = socket.getInputStream().read();
            socket.getOutputStream().write(received);
            socket.getOutputStream().flush();
            return socket.getSession().getPeerPrincipal().getName();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SSLContext context(IssuedCertificate own, CertificateAuthority trusted) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(Pkcs12Stores.keyStore(own, "own", PASSWORD), PASSWORD);
        KeyStore trustStore = Pkcs12Stores.trustStore(List.of(trusted.certificate()));
        TrustManagerFactory trust = TrustManagerFactory.getInstance("PKIX");
        trust.init(trustStore);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(keys.getKeyManagers(), trust.getTrustManagers(), TestPki.RANDOM);
        return context;
    }
}
