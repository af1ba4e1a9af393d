package io.metaquorum.security.grpc;

import io.metaquorum.security.StoreSource;
import io.metaquorum.security.SslSettings;
import io.metaquorum.security.SslConfigError;
import io.metaquorum.security.ClientAuthMode;
import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettySslContextChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettySslContextServerCredentials;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.util.Optional;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * gRPC credentials from {@link SslSettings}: a Netty TLS context whose key and trust managers
 * read the stores again when their files change, handed to gRPC as transport-neutral
 * {@link ServerCredentials} / {@link ChannelCredentials}.
 *
 * <p>Why a Netty context and not {@code TlsServerCredentials}: the latter cannot limit the
 * protocols or cipher suites, and {@code ssl.enabled.protocols} / {@code ssl.cipher.suites}
 * must hold. The JDK provider is used, not OpenSSL, because it consults the key manager on
 * every handshake, which is what makes a rotated certificate take effect without a restart.
 * Host names are always checked against the peer certificate's subject alternative names
 * (gRPC's TLS client does so, as Kafka's default {@code ssl.endpoint.identification.algorithm=https}).
 */
public final class TlsCredentials {
    private TlsCredentials() {
    }

    /** A TLS listener's credentials; the key store is required. */
    public static ServerCredentials server(SslSettings ssl, ClientAuthMode clientAuth) {
        StoreSource keyStore = ssl.keyStore().orElseThrow(() -> new SslConfigError(SslSettings.KEYSTORE_LOCATION,
                "a TLS listener needs a key store (" + SslSettings.KEYSTORE_LOCATION + ", or "
                        + SslSettings.KEYSTORE_KEY + " and " + SslSettings.KEYSTORE_CERTIFICATE_CHAIN + ")"));
        SslContextBuilder builder = SslContextBuilder.forServer(keyManager(keyStore, ssl.keyPassword()))
                .trustManager(trustManager(ssl.trustStore()))
                .clientAuth(switch (clientAuth) {
                    case NONE -> ClientAuth.NONE;
                    case REQUESTED -> ClientAuth.OPTIONAL;
                    case REQUIRED -> ClientAuth.REQUIRE;
                });
        return NettySslContextServerCredentials.create(build(builder, ssl));
    }

    /** A TLS client's credentials: a client certificate when the settings name a key store. */
    public static ChannelCredentials channel(SslSettings ssl) {
        SslContextBuilder builder = SslContextBuilder.forClient().trustManager(trustManager(ssl.trustStore()));
        ssl.keyStore().ifPresent(store -> builder.keyManager(keyManager(store, ssl.keyPassword())));
        return NettySslContextChannelCredentials.create(build(builder, ssl));
    }

    private static SslContext build(SslContextBuilder builder, SslSettings ssl) {
        GrpcSslContexts.configure(builder, SslProvider.JDK).protocols(ssl.protocols());
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

    private static X509ExtendedKeyManager keyManager(StoreSource source, Optional<String> keyPassword) {
        return TlsManagers.keyManager(source, keyPassword);
    }

    private static X509ExtendedTrustManager trustManager(Optional<StoreSource> source) {
        return TlsManagers.trustManager(source);
    }
}
