package io.metaquorum.server.kafka;

import java.util.Optional;
import org.apache.kafka.common.security.scram.ScramCredential;

/**
 * Where a SASL/SCRAM exchange on a Kafka-protocol listener finds a user's stored credential:
 * salt, iterations, stored and server keys, never the password. Called on the connection's
 * event loop, so an answer must come from memory (the node's metadata image), not from I/O.
 */
@FunctionalInterface
public interface ScramCredentialStore {
    /** A store that knows no user: every SCRAM exchange fails as for an unknown user. */
    ScramCredentialStore NONE = (mechanism, user) -> Optional.empty();

    /**
     * The credential of {@code user} for {@code mechanism}; empty when the user has none.
     *
     * @param mechanism {@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}
     * @param user      the SCRAM user name, already decoded from its SASL form
     */
    Optional<ScramCredential> credential(String mechanism, String user);
}
