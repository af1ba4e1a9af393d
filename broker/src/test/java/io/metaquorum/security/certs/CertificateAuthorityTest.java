package io.metaquorum.security.certs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SignatureException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.asn1.x509.Extension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

    @TempDir
    Path dir;

    @Test
    void theCaIsSelfSignedAndMayOnlySignEndEntities() throws Exception {
        X509Certificate ca = TestPki.ca("test-ca").certificate();
        ca.verify(ca.getPublicKey());
        assertEquals("CN=test-ca", ca.getSubjectX500Principal().getName());
        assertEquals(ca.getSubjectX500Principal(), ca.getIssuerX500Principal());
        assertEquals(0, ca.getBasicConstraints(), "CA with pathLenConstraint 0");
        boolean[] usage = ca.getKeyUsage();
        assertTrue(usage[5] && usage[6], "keyCertSign and cRLSign");
        assertFalse(usage[0], "no digitalSignature");
        assertEquals("SHA256withECDSA", ca.getSigAlgName());
        assertTrue(ca.getCriticalExtensionOIDs().contains(Extension.basicConstraints.getId()));
        assertTrue(ca.getNonCriticalExtensionOIDs().contains(Extension.subjectKeyIdentifier.getId()));
    }

    @Test
    void aNodeCertificateVerifiesAgainstItsCaAndServesAndDials() throws Exception {
        CertificateAuthority ca = TestPki.ca("test-ca");
        IssuedCertificate node = TestPki.node(ca, "node-1");
        X509Certificate certificate = node.certificate();
        certificate.verify(ca.certificate().getPublicKey());
        certificate.checkValidity();
        assertEquals("CN=node-1", certificate.getSubjectX500Principal().getName());
        assertEquals(ca.certificate().getSubjectX500Principal(), certificate.getIssuerX500Principal());
        assertEquals(List.of("2:localhost", "7:127.0.0.1"), TestPki.sans(node));
        assertEquals(List.of(SERVER_AUTH, CLIENT_AUTH), certificate.getExtendedKeyUsage());
        assertEquals(-1, certificate.getBasicConstraints(), "not a CA");
        boolean[] usage = certificate.getKeyUsage();
        assertTrue(usage[0], "digitalSignature");
        assertFalse(usage[2], "keyEncipherment is for RSA keys");
        assertFalse(usage[5], "no keyCertSign");
        assertEquals(List.of(certificate, ca.certificate()), node.chain());
        assertTrue(TestPki.isKeyOf(node.key(), certificate.getPublicKey()));
        assertAuthorityKeyIsTheCasSubjectKey(certificate, ca.certificate());
    }

    private static void assertAuthorityKeyIsTheCasSubjectKey(X509Certificate issued, X509Certificate ca) {
        byte[] caSubjectKeyId = ca.getExtensionValue(Extension.subjectKeyIdentifier.getId());
        byte[] authorityKeyId = issued.getExtensionValue(Extension.authorityKeyIdentifier.getId());
        // Both OCTET STRING-wrapped: SKI is OCTET STRING (20 bytes), AKI a SEQUENCE with [0] (20 bytes).
        byte[] ski = Arrays.copyOfRange(caSubjectKeyId, caSubjectKeyId.length - 20, caSubjectKeyId.length);
        byte[] aki = Arrays.copyOfRange(authorityKeyId, authorityKeyId.length - 20, authorityKeyId.length);
        assertArrayEquals(ski, aki);
    }

    @Test
    void aClientCertificateIsForClientAuthOnlyAndNamesNoHost() throws Exception {
        CertificateAuthority ca = TestPki.ca("test-ca");
        IssuedCertificate client = TestPki.client(ca, "alice");
        client.certificate().verify(ca.certificate().getPublicKey());
        assertEquals("CN=alice", client.certificate().getSubjectX500Principal().getName());
        assertEquals(List.of(CLIENT_AUTH), client.certificate().getExtendedKeyUsage());
        assertNull(client.certificate().getSubjectAlternativeNames());
    }

    @Test
    void extraDistinguishedNamePartsFollowTheCommonName() {
        CertificateAuthority ca = TestPki.ca("test-ca");
        CertificateRequest request = CertificateRequest.client("alice", TestPki.VALID_NOW)
                .withSubject(CertificateRequest.subject("alice, jr", "OU=admins,O=acme"));
        X509Certificate certificate = ca.issue(request, TestPki.RANDOM).certificate();
        assertEquals("CN=alice\\, jr,OU=admins,O=acme", certificate.getSubjectX500Principal().getName());
        assertThrows(IllegalArgumentException.class, () -> CertificateRequest.subject("alice", "not a dn"));
    }

    @Test
    void anRsaCertificateAlsoAllowsKeyEncipherment() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(CertificateRequest.subject("rsa-ca", ""), KeyType.RSA,
                TestPki.VALID_NOW, TestPki.RANDOM);
        IssuedCertificate node = ca.issue(CertificateRequest.node("node-1", List.of(SubjectAltName.dns("localhost")),
                TestPki.VALID_NOW).withKeyType(KeyType.RSA), TestPki.RANDOM);
        node.certificate().verify(ca.certificate().getPublicKey());
        assertEquals("SHA256withRSA", node.certificate().getSigAlgName());
        assertEquals("RSA", node.certificate().getPublicKey().getAlgorithm());
        assertTrue(node.certificate().getKeyUsage()[2], "keyEncipherment");
    }

    @Test
    void aCertificateMadeWithAPastValidityIsExpired() {
        CertificateAuthority ca = TestPki.ca("test-ca");
        IssuedCertificate expired = ca.issue(CertificateRequest.node("node-1", List.of(SubjectAltName.ip("127.0.0.1")),
                TestPki.expired()), TestPki.RANDOM);
        assertThrows(CertificateExpiredException.class, () -> expired.certificate().checkValidity());
        assertThrows(IllegalArgumentException.class, () -> new Validity(TestPki.NOW, TestPki.NOW));
    }

    @Test
    void aCertificateFromAnotherCaDoesNotVerify() {
        CertificateAuthority ca = TestPki.ca("test-ca");
        IssuedCertificate foreign = TestPki.node(TestPki.ca("other-ca"), "node-1");
        assertThrows(SignatureException.class, () -> foreign.certificate().verify(ca.certificate().getPublicKey()));
    }

    @Test
    void serialsAreRandomAndPositive() {
        CertificateAuthority ca = TestPki.ca("test-ca");
        X509Certificate first = TestPki.client(ca, "alice").certificate();
        X509Certificate second = TestPki.client(ca, "alice").certificate();
        assertNotEquals(first.getSerialNumber(), second.getSerialNumber());
        assertTrue(first.getSerialNumber().signum() > 0 && first.getSerialNumber().bitLength() <= 160);
    }

    @Test
    void aCaLoadedFromItsFilesIssuesCertificatesThatVerifyAgainstTheOriginal() throws Exception {
        CertificateAuthority ca = TestPki.ca("test-ca");
        PemFiles.writeCertificates(dir.resolve("ca.crt"), List.of(ca.certificate()));
        PemFiles.writePrivateKey(dir.resolve("ca.key"), ca.privateKey(), null, TestPki.RANDOM);
        CertificateAuthority loaded = CertificateAuthority.load(dir.resolve("ca.crt"), dir.resolve("ca.key"), null);
        assertEquals(ca.certificate(), loaded.certificate());
        TestPki.node(loaded, "node-2").certificate().verify(ca.certificate().getPublicKey());
    }

    @Test
    void loadingRefusesAKeyThatIsNotTheCertificatesOrACertificateThatIsNotACa() throws Exception {
        CertificateAuthority ca = TestPki.ca("test-ca");
        PemFiles.writeCertificates(dir.resolve("ca.crt"), List.of(ca.certificate()));
        PemFiles.writePrivateKey(dir.resolve("other.key"), TestPki.ca("other-ca").privateKey(), null, TestPki.RANDOM);
        IOException wrongKey = assertThrows(IOException.class,
                () -> CertificateAuthority.load(dir.resolve("ca.crt"), dir.resolve("other.key"), null));
        assertTrue(wrongKey.getMessage().contains("is not the private key"), wrongKey.getMessage());

        IssuedCertificate node = TestPki.node(ca, "node-1");
        PemFiles.writeCertificates(dir.resolve("node.crt"), List.of(node.certificate()));
        PemFiles.writePrivateKey(dir.resolve("node.key"), node.key(), null, TestPki.RANDOM);
        IOException notCa = assertThrows(IOException.class,
                () -> CertificateAuthority.load(dir.resolve("node.crt"), dir.resolve("node.key"), null));
        assertTrue(notCa.getMessage().contains("is not a CA certificate"), notCa.getMessage());

        IOException missing = assertThrows(IOException.class,
                () -> CertificateAuthority.load(dir.resolve("none.crt"), dir.resolve("ca.key"), null));
        assertTrue(missing.getMessage().endsWith("does not exist"), missing.getMessage());
    }
}
