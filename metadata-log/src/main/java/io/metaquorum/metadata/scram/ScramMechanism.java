package io.metaquorum.metadata.scram;

import java.util.Optional;

/**
 * The SCRAM mechanisms a credential can be for, with Kafka's wire type numbers (the
 * {@code mechanism} field of the SCRAM records and requests) and SASL mechanism names, and the
 * hash and HMAC each one is built on (RFC 5802, RFC 7677).
 */
public enum ScramMechanism {
    SCRAM_SHA_256(1, "SCRAM-SHA-256", "SHA-256", "HmacSHA256", 32),
    SCRAM_SHA_512(2, "SCRAM-SHA-512", "SHA-512", "HmacSHA512", 64);

    /** Fewest iterations a credential may have: Kafka's minimum for both mechanisms. */
    public static final int ITERATIONS_MIN = 4_096;
    /** Most iterations a credential may have: Kafka's controller refuses more. */
    public static final int ITERATIONS_MAX = 16_384;

    private final int type;
    private final String mechanismName;
    private final String hashAlgorithm;
    private final String macAlgorithm;
    private final int keyBytes;

    ScramMechanism(int type, String mechanismName, String hashAlgorithm, String macAlgorithm, int keyBytes) {
        this.type = type;
        this.mechanismName = mechanismName;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
        this.keyBytes = keyBytes;
    }

    /** Kafka's wire number of the mechanism. */
    public int type() {
        return type;
    }

    /** The SASL mechanism name, e.g. {@code SCRAM-SHA-256}. */
    public String mechanismName() {
        return mechanismName;
    }

    /** The {@code MessageDigest} algorithm H of RFC 5802. */
    public String hashAlgorithm() {
        return hashAlgorithm;
    }

    /** The {@code Mac} algorithm HMAC of RFC 5802. */
    public String macAlgorithm() {
        return macAlgorithm;
    }

    /** The length of every key of this mechanism (the hash's output), in bytes. */
    public int keyBytes() {
        return keyBytes;
    }

    /** The mechanism with wire number {@code type}; empty for any other number (Kafka's UNKNOWN). */
    public static Optional<ScramMechanism> fromType(int type) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.type == type) {
                return Optional.of(mechanism);
            }
        }
        return Optional.empty();
    }

    /** The mechanism named {@code name} exactly (e.g. {@code SCRAM-SHA-512}); empty for any other name. */
    public static Optional<ScramMechanism> fromMechanismName(String name) {
        for (ScramMechanism mechanism : values()) {
            if (mechanism.mechanismName.equals(name)) {
                return Optional.of(mechanism);
            }
        }
        return Optional.empty();
    }
}
