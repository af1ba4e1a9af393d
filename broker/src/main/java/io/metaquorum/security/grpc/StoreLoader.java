package io.metaquorum.security.grpc;

import io.metaquorum.security.StoreSource;
import io.metaquorum.security.SslSettings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads a {@link StoreSource} into a {@link KeyStore} the JDK's key and trust manager
 * factories take. PEM is turned into an in-memory PKCS12 store, so every form ends in the
 * same managers. Failures are {@link StoreLoadException}s saying which store and why, in words
 * an operator can act on (wrong password, no private key in the file, not a certificate).
 */
public final class StoreLoader {
    /** The alias and password of the in-memory store a PEM key is put in; never written anywhere. */
    static final String PEM_ALIAS = "key";
    static final char[] PEM_STORE_PASSWORD = new char[0];
    /** Ours alone, not registered for the process: the JDK's providers lack PKCS#8's AES-CBC padding name. */
    private static final BouncyCastleProvider BOUNCY_CASTLE = new BouncyCastleProvider();

    private StoreLoader() {
    }

    /** A key store with its private key(s), and the password each key is protected with in it. */
    public record LoadedKeyStore(KeyStore store, char[] keyPassword) {
    }

    /** Loads a key store; {@code keyPassword} is {@code ssl.key.password} (a PEM key's, or a store entry's). */
    public static LoadedKeyStore keyStore(StoreSource source, Optional<String> keyPassword) {
        try {
            if (source instanceof StoreSource.KeyStoreFile file) {
                KeyStore store = readStoreFile(file);
                // Kafka's rule: an entry's password is ssl.key.password, else the store's.
                String password = keyPassword.or(file::password).orElse("");
                return new LoadedKeyStore(store, password.toCharArray());
            }
            return pemKeyStore(source, pemText(source, true), keyPassword);
        } catch (IOException | GeneralSecurityException e) {
            throw new StoreLoadException("cannot read key store " + source.describe() + ": " + reason(e), e);
        }
    }

    /** Loads a trust store: the CA certificates this side accepts. */
    public static KeyStore trustStore(StoreSource source) {
        try {
            if (source instanceof StoreSource.KeyStoreFile file) {
                return readStoreFile(file);
            }
            return certificateStore(source, pemText(source, false));
        } catch (IOException | GeneralSecurityException e) {
            throw new StoreLoadException("cannot read trust store " + source.describe() + ": " + reason(e), e);
        }
    }

    /** The PEM of a PEM file or of PEM configuration text (with its key first, for a key store). */
    private static String pemText(StoreSource source, boolean withKey) throws IOException {
        if (source instanceof StoreSource.PemFile file) {
            return Files.readString(file.path(), StandardCharsets.US_ASCII);
        }
        StoreSource.PemText text = (StoreSource.PemText) source;
        return withKey ? text.key().orElseThrow() + "\n" + text.certificates() : text.certificates();
    }

    private static KeyStore readStoreFile(StoreSource.KeyStoreFile file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(file.type());
        try (InputStream in = Files.newInputStream(file.path())) {
            store.load(in, file.password().map(String::toCharArray).orElse(null));
        }
        return store;
    }

    private static LoadedKeyStore pemKeyStore(StoreSource source, String pem, Optional<String> keyPassword)
            throws IOException, GeneralSecurityException {
        PrivateKey key = privateKey(source, pem, keyPassword);
        List<X509Certificate> chain = certificates(pem);
        if (chain.isEmpty()) {
            throw new StoreLoadException("no certificate in " + source.describe());
        }
        if (!KeyPairing.matches(key, chain.get(0))) {
            throw new StoreLoadException("the private key in " + source.describe()
                    + " does not belong to its first certificate");
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(PEM_ALIAS, key, PEM_STORE_PASSWORD, chain.toArray(new Certificate[0]));
        return new LoadedKeyStore(store, PEM_STORE_PASSWORD);
    }

    private static KeyStore certificateStore(StoreSource source, String pem) throws IOException,
            GeneralSecurityException {
        List<X509Certificate> certificates = certificates(pem);
        if (certificates.isEmpty()) {
            throw new StoreLoadException("no certificate in " + source.describe());
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < certificates.size(); i++) {
            store.setCertificateEntry("ca-" + i, certificates.get(i));
        }
        return store;
    }

    private static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
        List<X509Certificate> certificates = new ArrayList<>();
        // The factory reads only CERTIFICATE blocks; a key block in the same text is skipped here.
        StringBuilder blocks = new StringBuilder();
        boolean inCertificate = false;
        for (String line : pem.split("\\R")) {
            String trimmed = line.trim();
            if (trimmed.equals("-----BEGIN CERTIFICATE-----")) {
                inCertificate = true;
            }
            if (inCertificate) {
                blocks.append(trimmed).append('\n');
            }
            if (trimmed.equals("-----END CERTIFICATE-----")) {
                inCertificate = false;
            }
        }
        if (blocks.length() == 0) {
            return certificates;
        }
        Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(blocks.toString().getBytes(StandardCharsets.US_ASCII)));
        for (Certificate certificate : read) {
            certificates.add((X509Certificate) certificate);
        }
        return certificates;
    }

    private static PrivateKey privateKey(StoreSource source, String pem, Optional<String> keyPassword)
            throws IOException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                if (block instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
                    if (keyPassword.isEmpty()) {
                        throw new StoreLoadException("the private key in " + source.describe()
                                + " is encrypted; set " + SslSettings.KEY_PASSWORD);
                    }
                    return converter.getPrivateKey(decrypt(source, encrypted, keyPassword.get()));
                }
                if (block instanceof PrivateKeyInfo plain) {
                    return converter.getPrivateKey(plain);
                }
                if (block instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
            }
        } catch (PEMException e) {
            throw new StoreLoadException("cannot read the private key in " + source.describe() + ": "
                    + e.getMessage(), e);
        }
        throw new StoreLoadException("no private key in " + source.describe());
    }

    private static PrivateKeyInfo decrypt(StoreSource source, PKCS8EncryptedPrivateKeyInfo encrypted,
                                          String password) {
        try {
            return encrypted.decryptPrivateKeyInfo(new JceOpenSSLPKCS8DecryptorProviderBuilder()
                    .setProvider(BOUNCY_CASTLE).build(password.toCharArray()));
        } catch (PKCSException | OperatorCreationException e) {
            throw new StoreLoadException("cannot decrypt the private key in " + source.describe()
                    + " with " + SslSettings.KEY_PASSWORD + " (wrong password?)", e);
        }
    }

    /** The JDK's messages for a wrong store password are indirect; say it plainly. */
    private static String reason(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof java.security.UnrecoverableKeyException
                || String.valueOf(e.getMessage()).contains("password")) {
            return "wrong password (" + e.getMessage() + ")";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
