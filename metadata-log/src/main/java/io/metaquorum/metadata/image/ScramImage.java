package io.metaquorum.metadata.image;

import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SCRAM credentials by user, then mechanism (Kafka's {@code ScramImage}), replayed from
 * UserScramCredentialRecord and RemoveUserScramCredentialRecord. Sorted persistent maps, so
 * iteration, describing and snapshots are in a fixed order and each image shares structure
 * with the last.
 *
 * <p>Invariant: no user maps to an empty set of mechanisms; a user is present exactly when it
 * holds at least one credential.
 */
public record ScramImage(TreeMap<String, TreeMap<ScramMechanism, StoredScramCredential>> byUser) {
    public static final ScramImage EMPTY = new ScramImage(TreeMap.empty());

    /** The credential a SASL/SCRAM server checks {@code user} against, if it has one for {@code mechanism}. */
    public Optional<StoredScramCredential> credential(String user, ScramMechanism mechanism) {
        return byUser.get(user).flatMap(m -> m.get(mechanism)).toJavaOptional();
    }

    /** {@code user}'s credentials by mechanism, empty when it has none. */
    public TreeMap<ScramMechanism, StoredScramCredential> credentials(String user) {
        return byUser.get(user).getOrElse(TreeMap.empty());
    }

    /** Every user holding a credential, by name. */
    public List<String> users() {
        List<String> users = new ArrayList<>(byUser.size());
        byUser.keysIterator().forEach(users::add);
        return users;
    }

    public boolean isEmpty() {
        return byUser.isEmpty();
    }

    /** Adds or replaces a credential replay has checked. */
    ScramImage withCredential(String user, ScramMechanism mechanism, StoredScramCredential credential) {
        return new ScramImage(byUser.put(user, credentials(user).put(mechanism, credential)));
    }

    /** Removes a credential replay has checked exists. */
    ScramImage withoutCredential(String user, ScramMechanism mechanism) {
        TreeMap<ScramMechanism, StoredScramCredential> left = credentials(user).remove(mechanism);
        return new ScramImage(left.isEmpty() ? byUser.remove(user) : byUser.put(user, left));
    }
}
