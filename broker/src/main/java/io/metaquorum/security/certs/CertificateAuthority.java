package io.metaquorum.security.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;

/**
 * A certificate authority: its self-signed certificate and the private key that signs the
 * certificates it issues. Made fresh by {@link #create}, or read back from the two PEM files
 * {@code mq-certs ca} wrote by {@link #load}.
 */
public final class CertificateAuthority {
    private final X509Certificate certificate;
    private final PrivateKey key;

    private CertificateAuthority(X509Certificate certificate, PrivateKey key) {
        this.certificate = certificate;
        this.key = key;
    }

    /**
     * A self-signed CA. pathLenConstraint 0: it signs end-entity certificates only, so a node's
     * key can never act as a CA even if the node is compromised.
     */
    public static CertificateAuthority create(X500Principal subject, KeyType keyType, Validity validity,
                                              SecureRandom random) {
        KeyPair keys = keyType.generateKeyPair(random);
        X509Certificate certificate = CertificateSigner.start(subject, subject, keys.getPublic(), validity, random)
                .authorityKey(keys.getPublic())
                .add(Extension.basicConstraints, true, new BasicConstraints(0))
                .add(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .sign(keys.getPrivate());
        return new CertificateAuthority(certificate, keys.getPrivate());
    }

    /**
     * The CA in {@code certificateFile} (PEM) and {@code keyFile} (PEM, PKCS#8 or the OpenSSL
     * traditional form; {@code keyPassword} null when unencrypted).
     *
     * @throws IOException when a file is missing or unreadable, or holds something else
     */
    public static CertificateAuthority load(Path certificateFile, Path keyFile, char[] keyPassword)
            throws IOException {
        List<X509Certificate> certificates = PemFiles.readCertificates(certificateFile);
        if (certificates.size() != 1) {
            throw new IOException(certificateFile + " holds " + certificates.size()
                    + " certificates; a CA certificate file holds exactly one");
        }
        X509Certificate certificate = certificates.get(0);
        if (certificate.getBasicConstraints() < 0) {
            throw new IOException(certificateFile + " is not a CA certificate (basicConstraints CA:false)");
        }
        PrivateKey key = PemFiles.readPrivateKey(keyFile, keyPassword);
        if (!belongTogether(key, certificate.getPublicKey())) {
            throw new IOException(keyFile + " is not the private key of the certificate in " + certificateFile);
        }
        return new CertificateAuthority(certificate, key);
    }

    /** Signs a probe and checks it with the public key: the one test that works for any key type. */
    private static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        try {
            String algorithm = KeyType.of(key).signatureAlgorithm();
            if (KeyType.of(publicKey) != KeyType.of(key)) {
                return false;
            }
            byte[] probe = "metaquorum CA key check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Issues a certificate for a new key pair, as {@code request} describes. */
    public IssuedCertificate issue(CertificateRequest request, SecureRandom random) {
        KeyPair keys = request.keyType().generateKeyPair(random);
        int keyUsage = KeyUsage.digitalSignature
                | (request.keyType().needsKeyEncipherment() ? KeyUsage.keyEncipherment : 0);
        CertificateSigner signer = CertificateSigner.start(certificate.getSubjectX500Principal(), request.subject(),
                        keys.getPublic(), request.validity(), random)
                .authorityKey(certificate.getPublicKey())
                .add(Extension.basicConstraints, true, new BasicConstraints(false))
                .add(Extension.keyUsage, true, new KeyUsage(keyUsage))
                .add(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(request.purpose().keyPurposes()));
        if (!request.subjectAltNames().isEmpty()) {
            GeneralName[] names = request.subjectAltNames().stream().map(SubjectAltName::toGeneralName)
                    .toArray(GeneralName[]::new);
            signer.add(Extension.subjectAlternativeName, false, new GeneralNames(names));
        }
        X509Certificate issued = signer.sign(key);
        return new IssuedCertificate(issued, List.of(issued, certificate), keys.getPrivate());
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public PrivateKey privateKey() {
        return key;
    }
}
