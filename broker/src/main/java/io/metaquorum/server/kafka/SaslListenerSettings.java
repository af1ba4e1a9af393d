package io.metaquorum.server.kafka;

import io.metaquorum.common.invariant.Invariants;
import java.util.List;
import java.util.Map;

/**
 * What a SASL_PLAINTEXT or SASL_SSL listener authenticates with. Checked by the
 * configuration (the mechanisms are among {@link #SUPPORTED_MECHANISMS}, a PLAIN listener has
 * users); here only asserted.
 *
 * @param mechanisms               the enabled mechanisms, in the configured order (the order
 *                                 a SaslHandshake answer lists them in)
 * @param plainUsers               PLAIN's user names and passwords; empty without PLAIN
 * @param receiveBytesMax          {@code sasl.server.max.receive.size}: the largest frame read
 *                                 before the client has authenticated
 * @param failedAuthenticationDelayMs {@code connection.failed.authentication.delay.ms}: how long
 *                                 after answering a failed authentication the connection closes
 */
public record SaslListenerSettings(List<String> mechanisms, Map<String, String> plainUsers, int receiveBytesMax,
                                   long failedAuthenticationDelayMs) {
    public static final String PLAIN = "PLAIN";
    public static final String SCRAM_SHA_256 = "SCRAM-SHA-256";
    public static final String SCRAM_SHA_512 = "SCRAM-SHA-512";
    public static final List<String> SUPPORTED_MECHANISMS = List.of(PLAIN, SCRAM_SHA_256, SCRAM_SHA_512);

    public SaslListenerSettings {
        mechanisms = List.copyOf(mechanisms);
        plainUsers = Map.copyOf(plainUsers);
        Invariants.check(!mechanisms.isEmpty() && SUPPORTED_MECHANISMS.containsAll(mechanisms),
                "SASL mechanisms %s", mechanisms);
        Invariants.check(!mechanisms.contains(PLAIN) || !plainUsers.isEmpty(), "PLAIN without users");
        Invariants.check(receiveBytesMax > 0 && failedAuthenticationDelayMs >= 0, "SASL limits %s %s",
                receiveBytesMax, failedAuthenticationDelayMs);
    }

    /** Hides the passwords. */
    @Override
    public String toString() {
        return "SaslListenerSettings" + mechanisms + " plain users " + plainUsers.keySet();
    }
}
