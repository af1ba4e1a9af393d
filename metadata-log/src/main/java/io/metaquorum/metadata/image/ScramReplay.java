package io.metaquorum.metadata.image;

import static io.metaquorum.metadata.image.TopicsReplay.check;

import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.RemoveUserScramCredentialRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.Optional;

/**
 * Replays the SCRAM records onto a {@link ScramImage}, refusing the impossible ones. A
 * credential is possible when Kafka's controller would have stored it: a non-empty user name,
 * a known mechanism, iterations within {@link ScramMechanism#ITERATIONS_MIN} and
 * {@link ScramMechanism#ITERATIONS_MAX}, a salt, and both keys as long as the mechanism's hash.
 * A removal must name a credential that exists.
 */
final class ScramReplay {
    private static final String ADD = "UserScramCredentialRecord";
    private static final String REMOVE = "RemoveUserScramCredentialRecord";

    private ScramReplay() {
    }

    static ScramImage add(ScramImage scram, UserScramCredentialRecord record, long offset) {
        check(!record.getName().isEmpty(), offset, ADD, "empty user name");
        Optional<ScramMechanism> known = ScramMechanism.fromType(record.getMechanism());
        check(known.isPresent(), offset, ADD, () -> "unknown mechanism " + record.getMechanism());
        ScramMechanism mechanism = known.get();
        check(record.getIterations() >= ScramMechanism.ITERATIONS_MIN
                && record.getIterations() <= ScramMechanism.ITERATIONS_MAX, offset, ADD,
                () -> "iterations " + record.getIterations() + " outside " + ScramMechanism.ITERATIONS_MIN + ".."
                        + ScramMechanism.ITERATIONS_MAX);
        check(!record.getSalt().isEmpty(), offset, ADD, "empty salt");
        check(record.getStoredKey().size() == mechanism.keyBytes() && record.getServerKey().size()
                == mechanism.keyBytes(), offset, ADD, () -> "keys of " + record.getStoredKey().size() + " and "
                + record.getServerKey().size() + " bytes, " + mechanism.mechanismName() + " keys have "
                + mechanism.keyBytes());
        return scram.withCredential(record.getName(), mechanism, new StoredScramCredential(
                record.getSalt().toByteArray(), record.getStoredKey().toByteArray(),
                record.getServerKey().toByteArray(), record.getIterations()));
    }

    static ScramImage remove(ScramImage scram, RemoveUserScramCredentialRecord record, long offset) {
        Optional<ScramMechanism> mechanism = ScramMechanism.fromType(record.getMechanism());
        check(mechanism.isPresent() && scram.credential(record.getName(), mechanism.get()).isPresent(), offset,
                REMOVE, () -> "no credential of user '" + record.getName() + "' for mechanism "
                        + record.getMechanism());
        return scram.withoutCredential(record.getName(), mechanism.get());
    }
}
