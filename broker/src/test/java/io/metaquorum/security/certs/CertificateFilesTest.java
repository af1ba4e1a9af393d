package io.metaquorum.security.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8DecryptorProviderBuilder;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM and PKCS12 files read back by other readers than ours: BouncyCastle's PEMParser and the JDK alone. */
class CertificateFilesTest {
    private static final char[] PASSWORD = "s3cret-pw".toCharArray();

    @TempDir
    Path dir;

    private final CertificateAuthority ca = TestPki.ca("test-ca");
    private final IssuedCertificate node = TestPki.node(ca, "node-1");

    @Test
    void anUnencryptedPemKeyIsPkcs8AndMatchesTheCertificate() throws Exception {
        Path file = dir.resolve("node-1.key");
        PemFiles.writePrivateKey(file, node.key(), null, TestPki.RANDOM);
        String text = Files.readString(file);
        assertTrue(text.startsWith("-----BEGIN PRIVATE KEY-----"), text);
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            PrivateKeyInfo info = assertInstanceOf(PrivateKeyInfo.class, parser.readObject());
            PrivateKey key = new JcaPEMKeyConverter().getPrivateKey(info);
            assertTrue(TestPki.isKeyOf(key, node.certificate().getPublicKey()));
        }
        assertOwnerOnly(file);
    }

    @Test
    void anEncryptedPemKeyDecryptsWithItsPasswordOnly() throws Exception {
        Path file = dir.resolve("node-1.key");
        PemFiles.writePrivateKey(file, node.key(), PASSWORD, TestPki.RANDOM);
        String text = Files.readString(file);
        assertTrue(text.startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"), text);
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            PKCS8EncryptedPrivateKeyInfo encrypted = assertInstanceOf(PKCS8EncryptedPrivateKeyInfo.class,
                    parser.readObject());
            PrivateKey key = new JcaPEMKeyConverter().getPrivateKey(encrypted.decryptPrivateKeyInfo(
                    new JceOpenSSLPKCS8DecryptorProviderBuilder().setProvider(new BouncyCastleProvider()).build(PASSWORD)));
            assertTrue(TestPki.isKeyOf(key, node.certificate().getPublicKey()));
        }
        IOException wrong = assertThrows(IOException.class, () -> PemFiles.readPrivateKey(file, "nope".toCharArray()));
        assertTrue(wrong.getMessage().contains("wrong password"), wrong.getMessage());
        assertThrows(IOException.class, () -> PemFiles.readPrivateKey(file, null));
        assertOwnerOnly(file);
    }

    /**
     * A reader with the JDK alone (no BouncyCastle), as JVM TLS stacks decrypt a PEM key: the
     * PBES2 parameters name a cipher the JDK has (PBEWithHmacSHA256AndAES_256).
     */
    @Test
    void anEncryptedPemKeyDecryptsWithTheJdkAlone() throws Exception {
        String pem = PemFiles.privateKeyPem(node.key(), PASSWORD, TestPki.RANDOM);
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(Base64.getDecoder().decode(base64));
        String algorithm = info.getAlgParameters().toString();
        assertEquals("PBEWithHmacSHA256AndAES_256", algorithm);
        SecretKeyFactory factory = SecretKeyFactory.getInstance(algorithm);
        Cipher cipher = Cipher.getInstance(algorithm);
        cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(PASSWORD)), info.getAlgParameters());
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(info.getKeySpec(cipher));
        assertTrue(TestPki.isKeyOf(key, node.certificate().getPublicKey()));
    }

    @Test
    void aPemChainReadsBackInOrder() throws Exception {
        Path file = dir.resolve("node-1.crt");
        PemFiles.writeCertificates(file, node.chain());
        assertEquals(node.chain(), PemFiles.readCertificates(file));
        assertPermissions(file, "rw-r--r--");
    }

    @Test
    void aPkcs12KeyStoreReadsBackWithTheJdk() throws Exception {
        Path file = dir.resolve("node-1.p12");
        Pkcs12Stores.writeKeyStore(file, Pkcs12Stores.keyStore(node, "node-1", PASSWORD), PASSWORD);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        assertEquals(List.of("node-1"), Collections.list(store.aliases()));
        assertTrue(store.isKeyEntry("node-1"));
        assertEquals(node.chain(), List.of(store.getCertificateChain("node-1")));
        PrivateKey key = (PrivateKey) store.getKey("node-1", PASSWORD);
        assertTrue(TestPki.isKeyOf(key, node.certificate().getPublicKey()));
        assertOwnerOnly(file);
    }

    @Test
    void aPkcs12TrustStoreHoldsEachCaAsATrustedEntry() throws Exception {
        Path file = dir.resolve("truststore.p12");
        X509Certificate other = TestPki.ca("other-ca").certificate();
        Pkcs12Stores.writeTrustStore(file, Pkcs12Stores.trustStore(List.of(ca.certificate(), other)), PASSWORD);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        assertTrue(store.isCertificateEntry("ca") && store.isCertificateEntry("ca-1"));
        assertEquals(ca.certificate(), store.getCertificate("ca"));
        assertEquals(other, store.getCertificate("ca-1"));
    }

    @Test
    void rewritingAKeyFileReplacesItAndLeavesNoTemporaryFile() throws Exception {
        Path file = dir.resolve("node-1.key");
        Files.writeString(file, "old");
        PemFiles.writePrivateKey(file, node.key(), null, TestPki.RANDOM);
        assertTrue(TestPki.isKeyOf(PemFiles.readPrivateKey(file, null), node.certificate().getPublicKey()));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
        assertOwnerOnly(file);
    }

    private static void assertOwnerOnly(Path file) throws IOException {
        assertPermissions(file, "rw-------");
    }

    private static void assertPermissions(Path file, String permissions) throws IOException {
        assumeTrue(CertificateFiles.supportsPosix(file), "no POSIX permissions here");
        assertEquals(PosixFilePermissions.fromString(permissions), Files.getPosixFilePermissions(file));
    }
}
