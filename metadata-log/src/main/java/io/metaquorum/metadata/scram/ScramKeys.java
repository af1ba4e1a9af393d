package io.metaquorum.metadata.scram;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key derivations of RFC 5802 §3 that a SCRAM credential is made of:
 * {@code SaltedPassword = Hi(password, salt, i)}, {@code ClientKey = HMAC(SaltedPassword, "Client Key")},
 * {@code StoredKey = H(ClientKey)} and {@code ServerKey = HMAC(SaltedPassword, "Server Key")}.
 * Pure functions of their inputs; the JDK provides every algorithm both mechanisms use, so a
 * {@link GeneralSecurityException} here is a broken JDK, not bad input.
 */
public final class ScramKeys {
    private static final byte[] CLIENT_KEY = "Client Key".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SERVER_KEY = "Server Key".getBytes(StandardCharsets.UTF_8);

    private ScramKeys() {
    }

    /** The credential to store for {@code saltedPassword}: what the controller keeps of an upsertion. */
    public static StoredScramCredential credential(ScramMechanism mechanism, byte[] salt, byte[] saltedPassword,
                                                   int iterations) {
        return new StoredScramCredential(salt, storedKey(mechanism, clientKey(mechanism, saltedPassword)),
                serverKey(mechanism, saltedPassword), iterations);
    }

    /**
     * Hi() of RFC 5802 §2.2, PBKDF2 with the mechanism's HMAC and one block of output, over the
     * password in UTF-8 (SASLprep is not applied, as Kafka does not apply it).
     */
    public static byte[] saltedPassword(ScramMechanism mechanism, String password, byte[] salt, int iterations) {
        Mac mac = mac(mechanism, password.getBytes(StandardCharsets.UTF_8));
        mac.update(salt);
        byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
        byte[] result = u.clone();
        for (int i = 1; i < iterations; i++) {
            u = mac.doFinal(u);
            for (int j = 0; j < result.length; j++) {
                result[j] ^= u[j];
            }
        }
        return result;
    }

    public static byte[] clientKey(ScramMechanism mechanism, byte[] saltedPassword) {
        return mac(mechanism, saltedPassword).doFinal(CLIENT_KEY);
    }

    public static byte[] storedKey(ScramMechanism mechanism, byte[] clientKey) {
        try {
            return MessageDigest.getInstance(mechanism.hashAlgorithm()).digest(clientKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks " + mechanism.hashAlgorithm(), e);
        }
    }

    public static byte[] serverKey(ScramMechanism mechanism, byte[] saltedPassword) {
        return mac(mechanism, saltedPassword).doFinal(SERVER_KEY);
    }

    /** An HMAC keyed with {@code key}, which must not be empty (an HMAC key never is in SCRAM). */
    private static Mac mac(ScramMechanism mechanism, byte[] key) {
        try {
            Mac mac = Mac.getInstance(mechanism.macAlgorithm());
            mac.init(new SecretKeySpec(key, mechanism.macAlgorithm()));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks " + mechanism.macAlgorithm(), e);
        }
    }
}
