package io.metaquorum.server.kafka;

import io.metaquorum.security.ClientAuthMode;
import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.grpc.TlsManagers;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLException;

/**
 * The TLS context of the SSL Kafka-protocol listeners: the node's key and trust stores (the
 * same reloading managers as its gRPC listener, {@link TlsManagers}), {@code ssl.client.auth},
 * {@code ssl.enabled.protocols} and {@code ssl.cipher.suites}. Netty's own TLS (gRPC's is a
 * shaded copy), with the JDK provider for the same reason as on gRPC: it asks the key manager
 * on every handshake, so a rotated certificate is served without a restart.
 */
public final class KafkaTls {
    private KafkaTls() {
    }

    /** A server context; the key store is required ({@code ServerConfig} has checked it is set). */
    public static SslContext server(SslSettings ssl, ClientAuthMode clientAuth) {
        SslContextBuilder builder = SslContextBuilder.forServer(TlsManagers.keyManager(ssl.keyStore().orElseThrow(),
                        ssl.keyPassword()))
                .trustManager(TlsManagers.trustManager(ssl.trustStore()))
                .sslProvider(SslProvider.JDK)
                .protocols(ssl.protocols())
                .clientAuth(switch (clientAuth) {
                    case NONE -> ClientAuth.NONE;
                    case REQUESTED -> ClientAuth.OPTIONAL;
                    case REQUIRED -> ClientAuth.REQUIRE;
                });
        if (!ssl.cipherSuites().isEmpty()) {
            builder.ciphers(ssl.cipherSuites());
        }
        try {
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            String key = ssl.cipherSuites().isEmpty() ? SslSettings.ENABLED_PROTOCOLS : SslSettings.CIPHER_SUITES;
            throw new SslConfigError(key, "cannot make a TLS context: " + e.getMessage(), e);
        }
    }
}
