package io.metaquorum.security.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Builds and signs one X.509 v3 certificate: the part a self-signed CA and an issued
 * certificate share (serial, validity, key identifiers, signature). BouncyCastle does the
 * encoding because the JDK has no public API that issues certificates.
 */
final class CertificateSigner {
    /** RFC 5280 4.1.2.2: a positive serial of at most 20 octets; 159 random bits stay below that. */
    private static final int SERIAL_BITS = 159;

    private final X509v3CertificateBuilder builder;
    private final JcaX509ExtensionUtils extensions;

    private CertificateSigner(X509v3CertificateBuilder builder) {
        this.builder = builder;
        try {
            this.extensions = new JcaX509ExtensionUtils();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no SHA-1 for key identifiers: " + e.getMessage(), e);
        }
    }

    /**
     * A certificate for {@code subjectKey} under {@code subject}, with a random serial and the
     * subjectKeyIdentifier already added.
     */
    static CertificateSigner start(X500Principal issuer, X500Principal subject, PublicKey subjectKey,
                                   Validity validity, SecureRandom random) {
        BigInteger serial = new BigInteger(SERIAL_BITS, random).add(BigInteger.ONE);
        CertificateSigner signer = new CertificateSigner(new JcaX509v3CertificateBuilder(issuer, serial,
                Date.from(validity.notBefore()), Date.from(validity.notAfter()), subject, subjectKey));
        signer.add(Extension.subjectKeyIdentifier, false, signer.extensions.createSubjectKeyIdentifier(subjectKey));
        return signer;
    }

    /** authorityKeyIdentifier: lets a verifier pick the issuer's key when a CA has several. */
    CertificateSigner authorityKey(PublicKey issuerKey) {
        return add(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(issuerKey));
    }

    CertificateSigner add(ASN1ObjectIdentifier oid, boolean critical, ASN1Encodable value) {
        try {
            builder.addExtension(oid, critical, value);
        } catch (CertIOException e) {
            throw new IllegalStateException("cannot encode extension " + oid + ": " + e.getMessage(), e);
        }
        return this;
    }

    X509Certificate sign(PrivateKey issuerKey) {
        String algorithm = KeyType.of(issuerKey).signatureAlgorithm();
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a certificate with " + algorithm + ": " + e.getMessage(), e);
        }
    }
}
