package io.metaquorum.security.certs;

import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;

/**
 * The key algorithms the certificates use. EC P-256 is the default: small keys, fast
 * handshakes, and every TLS 1.2/1.3 stack supports it. RSA 2048 is there for peers that
 * cannot do ECDSA.
 */
public enum KeyType {
    EC("SHA256withECDSA"),
    RSA("SHA256withRSA");

    private static final String EC_CURVE = "secp256r1";
    private static final int RSA_KEY_BITS = 2048;

    private final String signatureAlgorithm;

    KeyType(String signatureAlgorithm) {
        this.signatureAlgorithm = signatureAlgorithm;
    }

    /** The JCA name of the algorithm a key of this type signs certificates with. */
    public String signatureAlgorithm() {
        return signatureAlgorithm;
    }

    /**
     * RSA key exchange (TLS 1.2's RSA cipher suites) encrypts the premaster secret with the
     * server's key, so an RSA certificate also needs keyEncipherment; an EC key only signs.
     */
    public boolean needsKeyEncipherment() {
        return this == RSA;
    }

    public KeyPair generateKeyPair(SecureRandom random) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(name());
            if (this == EC) {
                generator.initialize(new ECGenParameterSpec(EC_CURVE), random);
            } else {
                generator.initialize(RSA_KEY_BITS, random);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            // Both algorithms are mandatory in every Java SE platform, so this is a broken JDK.
            throw new IllegalStateException("this JDK cannot generate " + name() + " keys: " + e.getMessage(), e);
        }
    }

    /** The type of an existing key (a CA loaded from its files). */
    public static KeyType of(Key key) {
        return switch (key.getAlgorithm()) {
            case "EC", "ECDSA" -> EC;
            case "RSA" -> RSA;
            default -> throw new IllegalArgumentException("unsupported key algorithm " + key.getAlgorithm()
                    + " (expected EC or RSA)");
        };
    }
}
