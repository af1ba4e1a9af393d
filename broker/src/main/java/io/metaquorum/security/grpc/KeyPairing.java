package io.metaquorum.security.grpc;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;

/**
 * Whether a private key belongs to a certificate: it signs a probe and the certificate's key
 * verifies it. Checked when a PEM key and chain are read, because a mismatched pair (a renewed
 * certificate beside the old key, half-way through a rotation) would otherwise only show up as
 * a peer's handshake failure.
 */
final class KeyPairing {
    private static final byte[] PROBE = "metaquorum key pairing probe".getBytes(StandardCharsets.US_ASCII);

    private KeyPairing() {
    }

    static boolean matches(PrivateKey key, X509Certificate certificate) {
        if (!key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())) {
            return false;
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            // A key type this check cannot sign with: the first handshake will tell.
            return true;
        }
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(PROBE);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
