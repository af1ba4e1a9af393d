package io.metaquorum.security.grpc;

import io.metaquorum.security.TestPki;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.SslPrincipalMapping;
import io.metaquorum.security.Principal;
import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.Caller;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS credentials from {@link SslSettings} and the principal every call gets from
 * {@link IdentityInterceptor}, over real TLS on 127.0.0.1: who is accepted, who is refused in
 * the handshake, what a forwarded principal needs, and rotation of both stores while serving.
 */
class TlsIdentityTest {
    private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    /** Answers with the caller the identity check attached to the call. */
    private static final MethodDescriptor<String, String> WHO_AM_I = MethodDescriptor.<String, String>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Identity/WhoAmI")
            .setRequestMarshaller(TEXT).setResponseMarshaller(TEXT).build();

    @TempDir
    Path dir;
    private TestPki pki;
    private Path trustStore;
    private final List<Server> servers = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();

    @BeforeEach
    void makeCertificates() {
        pki = TestPki.create(dir.resolve("ca"), "test-ca");
        trustStore = pki.trustStore("truststore.p12");
    }

    @AfterEach
    void close() throws InterruptedException {
        channels.forEach(ManagedChannel::shutdownNow);
        servers.forEach(Server::shutdownNow);
        for (Server server : servers) {
            server.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private InetSocketAddress serve(Map<String, String> ssl, ClientAuthMode clientAuth, String rules,
                                    Set<Principal> nodePrincipals) throws IOException {
        ServerCredentials credentials = ssl == null ? io.grpc.InsecureServerCredentials.create()
                : TlsCredentials.server(SslSettings.parse(ssl::get), clientAuth);
        ServerServiceDefinition service = ServerServiceDefinition.builder("test.Identity")
                .addMethod(WHO_AM_I, ServerCalls.asyncUnaryCall((request, reply) -> {
                    reply.onNext(IdentityInterceptor.current().toString());
                    reply.onCompleted();
                })).build();
        IdentityInterceptor identity = new IdentityInterceptor(SslPrincipalMapping.parse(rules), nodePrincipals,
                new RefusalLog("[test] ", System::nanoTime));
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), credentials)
                .addService(ServerInterceptors.intercept(service, identity)).build().start();
        servers.add(server);
        return (InetSocketAddress) server.getListenSockets().get(0);
    }

    private InetSocketAddress serveNode(ClientAuthMode clientAuth) throws IOException {
        return serve(TestPki.settings(pki.nodeKeyStore("node-1"), trustStore), clientAuth, "DEFAULT", Set.of());
    }

    private String call(InetSocketAddress server, ChannelCredentials credentials) {
        return callWith(server, credentials, new Metadata());
    }

    private String callWith(InetSocketAddress server, ChannelCredentials credentials, Metadata headers) {
        ManagedChannel channel = NettyChannelBuilder.forAddress(server, credentials).build();
        channels.add(channel);
        return ClientCalls.blockingUnaryCall(io.grpc.ClientInterceptors.intercept(channel,
                        MetadataUtils.newAttachHeadersInterceptor(headers)), WHO_AM_I,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "?");
    }

    private ChannelCredentials client(Path keyStore, Path trusted) {
        Map<String, String> settings = TestPki.settings(keyStore, trusted);
        return TlsCredentials.channel(SslSettings.parse(settings::get));
    }

    private static Status.Code refusal(Runnable call) {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
    }

    @Test
    void aClientCertificateIsItsSubjectAfterTheMappingRules() throws IOException {
        InetSocketAddress server = serveNode(ClientAuthMode.REQUIRED);
        assertEquals("User:CN=alice from 127.0.0.1", call(server, client(pki.clientKeyStore("alice"), trustStore)));

        InetSocketAddress mapped = serve(TestPki.settings(pki.nodeKeyStore("node-2"), trustStore),
                ClientAuthMode.REQUIRED, "RULE:^CN=([a-z]+)$/$1/U, DEFAULT", Set.of());
        assertEquals("User:ALICE from 127.0.0.1", call(mapped, client(pki.clientKeyStore("alice"), trustStore)));

        InetSocketAddress noRuleMatches = serve(TestPki.settings(pki.nodeKeyStore("node-3"), trustStore),
                ClientAuthMode.REQUIRED, "RULE:^CN=node-.*$/node/", Set.of());
        assertEquals(Status.Code.UNAUTHENTICATED,
                refusal(() -> call(noRuleMatches, client(pki.clientKeyStore("alice"), trustStore))),
                "a subject no rule maps has no principal: refused, as Kafka fails its authentication");
    }

    @Test
    void withoutACertificateAClientIsAnonymousOrRefused() throws IOException {
        InetSocketAddress requested = serveNode(ClientAuthMode.REQUESTED);
        assertEquals("User:ANONYMOUS from 127.0.0.1", call(requested, client(null, trustStore)));
        InetSocketAddress required = serveNode(ClientAuthMode.REQUIRED);
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(required, client(null, trustStore))),
                "refused in the handshake");
        InetSocketAddress plaintext = serve(null, ClientAuthMode.NONE, "DEFAULT", Set.of());
        assertEquals("User:ANONYMOUS from 127.0.0.1", call(plaintext, io.grpc.InsecureChannelCredentials.create()));
    }

    @Test
    void certificatesThisNodeDoesNotTrustAreRefusedInTheHandshake() throws IOException {
        InetSocketAddress server = serveNode(ClientAuthMode.REQUIRED);
        TestPki rogue = TestPki.create(dir.resolve("rogue"), "rogue-ca");
        Path rogueTrust = rogue.trustStore("rogue-trust.p12", pki);
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server,
                client(rogue.clientKeyStore("node-2"), rogueTrust))), "another CA, even with a node's name");
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server,
                client(pki.expiredClientKeyStore("late"), trustStore))), "expired");
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server, io.grpc.InsecureChannelCredentials.create())),
                "plaintext to a TLS port");
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server,
                client(pki.clientKeyStore("alice"), rogue.trustStore("only-rogue.p12")))),
                "the client does not trust the node's certificate either");
    }

    @Test
    void aForwardedPrincipalIsTakenOnlyFromANodePrincipal() throws IOException {
        InetSocketAddress server = serve(TestPki.settings(pki.nodeKeyStore("node-1"), trustStore),
                ClientAuthMode.REQUIRED, "DEFAULT", Set.of(Principal.parse("User:CN=node-4")));
        Metadata forwarded = new Metadata();
        ForwardedIdentity.write(new Caller(Principal.parse("User:CN=admin"), "10.1.2.3"), forwarded);
        assertEquals("User:CN=admin from 10.1.2.3 via User:CN=node-4",
                callWith(server, client(pki.nodeKeyStore("node-4"), trustStore), forwarded));
        assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> callWith(server,
                client(pki.clientKeyStore("alice"), trustStore), forwarded)), "alice may not speak for admin");
        assertEquals("User:CN=alice from 127.0.0.1", call(server, client(pki.clientKeyStore("alice"), trustStore)),
                "alice may still speak for herself");
    }

    @Test
    void rotatedStoresAreUsedByNewConnectionsWithoutARestart() throws IOException {
        Path serverKeyStore = pki.nodeKeyStore("node-1");
        Path serverTrust = pki.trustStore("server-trust.p12");
        InetSocketAddress server = serve(TestPki.settings(serverKeyStore, serverTrust), ClientAuthMode.REQUIRED,
                "DEFAULT", Set.of());
        TestPki next = TestPki.create(dir.resolve("next"), "next-ca");
        Path onlyNext = next.trustStore("only-next.p12");
        ChannelCredentials nextClient = client(next.clientKeyStore("bob"), onlyNext);
        ChannelCredentials oldClient = client(pki.clientKeyStore("alice"), trustStore);
        ManagedChannel kept = NettyChannelBuilder.forAddress(server, oldClient).build();
        channels.add(kept);
        ClientCalls.blockingUnaryCall(kept, WHO_AM_I, CallOptions.DEFAULT, "?");
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server, nextClient)), "before the rotation");

        // The new CA is trusted, and the node's certificate is reissued by it.
        TestPki.rotate(pki.trustStore("both.p12", next), serverTrust);
        TestPki.rotate(next.nodeKeyStore("node-1"), serverKeyStore);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String answer = null;
        while (answer == null && System.nanoTime() < deadline) {
            try {
                answer = call(server, nextClient);
            } catch (StatusRuntimeException e) {
                assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
            }
        }
        assertEquals("User:CN=bob from 127.0.0.1", answer,
                "a client trusting only the new CA accepts the reissued certificate and is accepted");
        assertEquals("User:CN=alice from 127.0.0.1",
                ClientCalls.blockingUnaryCall(kept, WHO_AM_I, CallOptions.DEFAULT, "?"),
                "a connection made before the rotation carries on");
    }

    @Test
    void pemFilesAndTextWork() throws IOException {
        Map<String, String> pemServer = new HashMap<>();
        Path keyStore = pki.nodeKeyStore("node-1");
        String pem = PemExport.keyAndChain(keyStore, TestPki.PASSWORD, "pem-password");
        pemServer.put("ssl.keystore.type", "PEM");
        pemServer.put("ssl.keystore.key", PemExport.keyPart(pem));
        pemServer.put("ssl.keystore.certificate.chain", PemExport.certificatePart(pem));
        pemServer.put("ssl.key.password", "pem-password");
        pemServer.put("ssl.truststore.type", "PEM");
        pemServer.put("ssl.truststore.certificates", PemExport.certificates(pki.caCertificate()));
        InetSocketAddress server = serve(pemServer, ClientAuthMode.REQUIRED, "DEFAULT", Set.of());
        Path pemFile = PemExport.write(dir.resolve("alice.pem"), PemExport.keyAndChain(pki.clientKeyStore("alice"),
                TestPki.PASSWORD, null));
        Map<String, String> pemClient = new HashMap<>();
        pemClient.put("ssl.keystore.type", "PEM");
        pemClient.put("ssl.keystore.location", pemFile.toString());
        pemClient.put("ssl.truststore.type", "PEM");
        pemClient.put("ssl.truststore.location", PemExport.write(dir.resolve("ca.pem"),
                PemExport.certificates(pki.caCertificate())).toString());
        assertEquals("User:CN=alice from 127.0.0.1",
                call(server, TlsCredentials.channel(SslSettings.parse(pemClient::get))));
    }

    @Test
    void enabledProtocolsHold() throws IOException {
        Map<String, String> tls12Only = TestPki.settings(pki.nodeKeyStore("node-1"), trustStore);
        tls12Only.put("ssl.enabled.protocols", "TLSv1.2");
        InetSocketAddress server = serve(tls12Only, ClientAuthMode.REQUIRED, "DEFAULT", Set.of());
        assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(server, client(pki.clientKeyStore("alice"),
                trustStore))), "a TLSv1.3-only client and a TLSv1.2-only server share no protocol");
        Map<String, String> clientTls12 = TestPki.settings(pki.clientKeyStore("alice"), trustStore);
        clientTls12.put("ssl.enabled.protocols", "TLSv1.2,TLSv1.3");
        assertEquals("User:CN=alice from 127.0.0.1",
                call(server, TlsCredentials.channel(SslSettings.parse(clientTls12::get))));
    }

    @Test
    void aWrongStorePasswordSaysSo() {
        Map<String, String> settings = TestPki.settings(pki.nodeKeyStore("node-1"), trustStore);
        settings.put("ssl.keystore.password", "not-it");
        StoreLoadException e = assertThrows(StoreLoadException.class,
                () -> TlsCredentials.server(SslSettings.parse(settings::get), ClientAuthMode.REQUIRED));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("password"), e.getMessage());
    }
}
