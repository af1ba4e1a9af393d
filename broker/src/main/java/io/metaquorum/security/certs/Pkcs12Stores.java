package io.metaquorum.security.certs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * PKCS12 key stores (a private key with its chain under an alias) and trust stores (CA
 * certificates as trusted entries), built with the JDK's own PKCS12 implementation so that
 * any JVM, Kafka included, reads them with {@code KeyStore.getInstance("PKCS12")}.
 */
public final class Pkcs12Stores {
    public static final String TYPE = "PKCS12";

    private Pkcs12Stores() {
    }

    /** The key and chain under {@code alias}, protected by {@code password} (store and key alike). */
    public static KeyStore keyStore(IssuedCertificate issued, String alias, char[] password) {
        KeyStore store = empty();
        try {
            store.setKeyEntry(alias, issued.key(), password, issued.chain().toArray(Certificate[]::new));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot put a key into a PKCS12 store: " + e.getMessage(), e);
        }
        return store;
    }

    /** Each CA certificate as a trusted entry, under aliases {@code ca}, {@code ca-1}, .... */
    public static KeyStore trustStore(List<X509Certificate> caCertificates) {
        KeyStore store = empty();
        try {
            for (int i = 0; i < caCertificates.size(); i++) {
                store.setCertificateEntry(i == 0 ? "ca" : "ca-" + i, caCertificates.get(i));
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot put a certificate into a PKCS12 store: " + e.getMessage(), e);
        }
        return store;
    }

    /** A key store: mode 600. */
    public static void writeKeyStore(Path file, KeyStore store, char[] password) throws IOException {
        CertificateFiles.writeSecret(file, encode(store, password));
    }

    /** A trust store holds only public certificates: mode 644. */
    public static void writeTrustStore(Path file, KeyStore store, char[] password) throws IOException {
        CertificateFiles.writePublic(file, encode(store, password));
    }

    private static byte[] encode(KeyStore store, char[] password) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            store.store(bytes, password);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot encode a PKCS12 store: " + e.getMessage(), e);
        }
        return bytes.toByteArray();
    }

    private static KeyStore empty() {
        try {
            KeyStore store = KeyStore.getInstance(TYPE);
            store.load(null, null);
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("this JDK has no PKCS12 key store: " + e.getMessage(), e);
        }
    }
}
