package io.metaquorum.security.certs;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.OutputEncryptor;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.pkcs.PKCSException;

/**
 * Certificates and private keys as PEM text and files. Private keys are PKCS#8
 * ({@code PRIVATE KEY}, or {@code ENCRYPTED PRIVATE KEY} with a password): the form Kafka's
 * {@code ssl.keystore.type=PEM} reads, encrypted exactly when {@code ssl.key.password} is set.
 */
public final class PemFiles {
    /**
     * PBES2 with PBKDF2-HMAC-SHA256 and AES-256-CBC: the JDK's own {@code EncryptedPrivateKeyInfo}
     * (what Kafka decrypts with) reads it, unlike the SHA-1 PRF BouncyCastle would pick by default.
     */
    private static final int PBKDF2_ITERATIONS = 100_000;
    /**
     * The JDK's providers have AES-CBC only under names BouncyCastle does not ask for, so PEM
     * encryption uses BouncyCastle's provider: this instance only, not registered process-wide.
     */
    private static final Provider BOUNCY_CASTLE = new BouncyCastleProvider();

    private PemFiles() {
    }

    public static String certificatesPem(List<X509Certificate> certificates) {
        return toPem(certificates.toArray());
    }

    /** {@code password} null or empty: unencrypted. */
    public static String privateKeyPem(PrivateKey key, char[] password, SecureRandom random) {
        OutputEncryptor encryptor = null;
        if (password != null && password.length > 0) {
            try {
                encryptor = new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
                        .setPRF(PKCS8Generator.PRF_HMACSHA256).setIterationCount(PBKDF2_ITERATIONS)
                        .setProvider(BOUNCY_CASTLE).setRandom(random).setPassword(password).build();
            } catch (OperatorCreationException e) {
                throw new IllegalStateException("cannot encrypt a private key: " + e.getMessage(), e);
            }
        }
        try {
            return toPem(new JcaPKCS8Generator(key, encryptor));
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode a private key: " + e.getMessage(), e);
        }
    }

    public static void writeCertificates(Path file, List<X509Certificate> certificates) throws IOException {
        CertificateFiles.writePublic(file, certificatesPem(certificates).getBytes(StandardCharsets.US_ASCII));
    }

    /** Mode 600; {@code password} null or empty writes the key unencrypted. */
    public static void writePrivateKey(Path file, PrivateKey key, char[] password, SecureRandom random)
            throws IOException {
        CertificateFiles.writeSecret(file, privateKeyPem(key, password, random).getBytes(StandardCharsets.US_ASCII));
    }

    /** Every certificate in {@code file}, in order; other PEM objects are skipped. */
    public static List<X509Certificate> readCertificates(Path file) throws IOException {
        List<X509Certificate> certificates = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(read(file)))) {
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (CertificateException | RuntimeException e) {
            throw new IOException(file + " is not a readable PEM certificate file: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IOException(file + " holds no PEM certificate");
        }
        return certificates;
    }

    /** The first private key in {@code file}; {@code password} is needed only for an encrypted one. */
    public static PrivateKey readPrivateKey(Path file, char[] password) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(read(file)))) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                } else if (object instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair).getPrivate();
                } else if (object instanceof PKCS8EncryptedPrivateKeyInfo encrypted) {
                    if (password == null || password.length == 0) {
                        throw new IOException(file + " holds an encrypted private key and no password was given");
                    }
                    return converter.getPrivateKey(encrypted.decryptPrivateKeyInfo(
                            new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(BOUNCY_CASTLE).build(password)));
                }
            }
        } catch (OperatorCreationException | PKCSException e) {
            throw new IOException("cannot decrypt the private key in " + file + " (wrong password?)", e);
        } catch (RuntimeException e) {
            throw new IOException(file + " is not a readable PEM key file: " + e.getMessage(), e);
        }
        throw new IOException(file + " holds no PEM private key");
    }

    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new IOException(file + " does not exist", e);
        }
    }

    private static String toPem(Object... objects) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            for (Object object : objects) {
                writer.writeObject(object);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write PEM: " + e.getMessage(), e);
        }
        return text.toString();
    }
}
