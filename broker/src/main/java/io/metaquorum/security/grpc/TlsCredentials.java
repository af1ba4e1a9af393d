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
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
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
        return new ReloadingKeyManager(new ReloadingStore<>("key store " + source.describe(), source.files(),
                () -> keyManagerOf(StoreLoader.keyStore(source, keyPassword), source), System::nanoTime));
    }

    private static X509ExtendedTrustManager trustManager(Optional<StoreSource> source) {
        if (source.isEmpty()) {
            return trustManagerOf(null, "the JDK's default trust store");
        }
        StoreSource store = source.get();
        return new ReloadingTrustManager(new ReloadingStore<>("trust store " + store.describe(), store.files(),
                () -> trustManagerOf(StoreLoader.trustStore(store), store.describe()), System::nanoTime));
    }

    private static X509ExtendedKeyManager keyManagerOf(StoreLoader.LoadedKeyStore loaded, StoreSource source) {
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance("PKIX");
            factory.init(loaded.store(), loaded.keyPassword());
            X509ExtendedKeyManager manager = (X509ExtendedKeyManager) factory.getKeyManagers()[0];
            if (!hasPrivateKey(loaded.store())) {
                throw new StoreLoadException("no private key in key store " + source.describe());
            }
            return manager;
        } catch (GeneralSecurityException e) {
            throw new StoreLoadException("cannot use key store " + source.describe() + ": " + e.getMessage()
                    + " (is " + SslSettings.KEY_PASSWORD + " right?)", e);
        }
    }

    private static boolean hasPrivateKey(KeyStore store) throws GeneralSecurityException {
        for (String alias : java.util.Collections.list(store.aliases())) {
            if (store.isKeyEntry(alias)) {
                return true;
            }
        }
        return false;
    }

    private static X509ExtendedTrustManager trustManagerOf(KeyStore store, String what) {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            return (X509ExtendedTrustManager) factory.getTrustManagers()[0];
        } catch (GeneralSecurityException e) {
            throw new StoreLoadException("cannot use trust store " + what + ": " + e.getMessage(), e);
        }
    }
}
