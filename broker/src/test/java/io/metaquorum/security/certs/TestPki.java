package io.metaquorum.security.certs;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The certificates the tests share: a CA valid now and the node and client certificates it issues. */
final class TestPki {
    static final SecureRandom RANDOM = new SecureRandom();
    static final Instant NOW = Instant.now();
    static final Validity VALID_NOW = Validity.days(NOW, 1);

    private TestPki() {
    }

    static CertificateAuthority ca(String name) {
        return CertificateAuthority.create(CertificateRequest.subject(name, ""), KeyType.EC, VALID_NOW, RANDOM);
    }

    static IssuedCertificate node(CertificateAuthority ca, String name) {
        return ca.issue(CertificateRequest.node(name, SubjectAltName.parseList("DNS:localhost,IP:127.0.0.1"),
                VALID_NOW), RANDOM);
    }

    static IssuedCertificate client(CertificateAuthority ca, String name) {
        return ca.issue(CertificateRequest.client(name, VALID_NOW), RANDOM);
    }

    /** Valid for a day that ended an hour ago. */
    static Validity expired() {
        return new Validity(NOW.minus(Duration.ofDays(1)).minus(Duration.ofHours(1)), NOW.minus(Duration.ofHours(1)));
    }

    /** Whether {@code key} is the private half of {@code publicKey}: a signature made with one verifies with the other. */
    static boolean isKeyOf(PrivateKey key, PublicKey publicKey) throws GeneralSecurityException {
        String algorithm = KeyType.of(key).signatureAlgorithm();
        byte[] message = "probe".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(message);
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(publicKey);
        verifier.update(message);
        return verifier.verify(signer.sign());
    }

    static List<String> sans(IssuedCertificate issued) throws GeneralSecurityException {
        return issued.certificate().getSubjectAlternativeNames().stream()
                .map(entry -> entry.get(0) + ":" + entry.get(1)).toList();
    }
}
