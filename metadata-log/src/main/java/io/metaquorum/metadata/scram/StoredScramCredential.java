package io.metaquorum.metadata.scram;

import java.util.Arrays;
import java.util.Objects;

/**
 * What a SASL/SCRAM server keeps of one user's password for one mechanism (RFC 5802 §3): the
 * salt and iteration count it sends the client, and StoredKey and ServerKey, with which it
 * checks the client's proof and signs its own answer. The password cannot be had back from it.
 *
 * <p>Immutable: the arrays are copied in and out. Equality is by content. {@link #toString()}
 * shows the iterations only, so a credential never reaches a log line.
 */
public record StoredScramCredential(byte[] salt, byte[] storedKey, byte[] serverKey, int iterations) {
    public StoredScramCredential {
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredScramCredential other && iterations == other.iterations
                && Arrays.equals(salt, other.salt) && Arrays.equals(storedKey, other.storedKey)
                && Arrays.equals(serverKey, other.serverKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(salt), Arrays.hashCode(storedKey), Arrays.hashCode(serverKey), iterations);
    }

    @Override
    public String toString() {
        return "StoredScramCredential[salt=[redacted], storedKey=[redacted], serverKey=[redacted], iterations="
                + iterations + "]";
    }
}
