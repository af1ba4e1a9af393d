package io.metaquorum.security.grpc;

import io.metaquorum.security.SslSettings;
import io.metaquorum.security.StoreSource;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The key and trust managers of every TLS endpoint of a node, from its key and trust stores,
 * each reading its store again when the files change (a rotated certificate takes effect
 * without a restart). The gRPC credentials ({@link TlsCredentials}) and the Kafka-protocol
 * listener build their TLS contexts on these same managers, so both present and trust the same.
 */
public final class TlsManagers {
    private TlsManagers() {
    }

    /** The key manager of {@code source}, which reads the store again when its files change. */
    public static X509ExtendedKeyManager keyManager(StoreSource source, Optional<String> keyPassword) {
        return new ReloadingKeyManager(new ReloadingStore<>("key store " + source.describe(), source.files(),
                () -> keyManagerOf(StoreLoader.keyStore(source, keyPassword), source), System::nanoTime));
    }

    /** The trust manager of {@code source} (the JDK's CAs when empty), read again when its files change. */
    public static X509ExtendedTrustManager trustManager(Optional<StoreSource> source) {
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
