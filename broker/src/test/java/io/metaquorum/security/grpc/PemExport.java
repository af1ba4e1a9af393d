package io.metaquorum.security.grpc;

import io.metaquorum.security.certs.PemFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/** PEM text of a PKCS12 key store's key and chain, for the PEM forms of the ssl.* keys. */
final class PemExport {
    private PemExport() {
    }

    /** The key (encrypted with {@code keyPassword} when not null) followed by the chain. */
    static String keyAndChain(Path pkcs12, String storePassword, String keyPassword) {
        try (InputStream in = Files.newInputStream(pkcs12)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, storePassword.toCharArray());
            String alias = store.aliases().nextElement();
            PrivateKey key = (PrivateKey) store.getKey(alias, storePassword.toCharArray());
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate certificate : store.getCertificateChain(alias)) {
                chain.add((X509Certificate) certificate);
            }
            return PemFiles.privateKeyPem(key, keyPassword == null ? null : keyPassword.toCharArray(),
                    new SecureRandom()) + PemFiles.certificatesPem(chain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String certificates(X509Certificate... certificates) {
        return PemFiles.certificatesPem(List.of(certificates));
    }

    static String keyPart(String pem) {
        return pem.substring(0, pem.indexOf("-----BEGIN CERTIFICATE-----"));
    }

    static String certificatePart(String pem) {
        return pem.substring(pem.indexOf("-----BEGIN CERTIFICATE-----"));
    }

    static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
