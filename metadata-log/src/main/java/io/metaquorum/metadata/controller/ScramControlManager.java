package io.metaquorum.metadata.controller;

import com.google.protobuf.ByteString;
import io.metaquorum.metadata.image.ScramImage;
import io.metaquorum.metadata.scram.ScramKeys;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.MetadataRecord;
import io.metaquorum.protocol.RemoveUserScramCredentialRecord;
import io.metaquorum.protocol.UserScramCredentialRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SCRAM credentials (Kafka's {@code ScramControlManager}): AlterUserScramCredentials decided
 * on the decision image, as records and a response (docs/engineering-rules.md rule 4).
 * DescribeUserScramCredentials is a read, answered from a node's own image
 * ({@link ScramDescriptions}).
 *
 * <p>Kafka's rules, each user on its own: a user named more than once in the request (among
 * deletions and upsertions together) is DUPLICATE_RESOURCE and nothing of it is done (unless
 * an earlier entry of it already failed on its own: that error stays the user's); an empty
 * name or iterations outside {@link ScramMechanism#ITERATIONS_MIN}..{@link
 * ScramMechanism#ITERATIONS_MAX} is UNACCEPTABLE_CREDENTIAL; an unknown mechanism
 * UNSUPPORTED_SASL_MECHANISM; deleting a credential that does not exist RESOURCE_NOT_FOUND.
 * Beyond Kafka, an empty salt or salted password is UNACCEPTABLE_CREDENTIAL: Kafka's client
 * never sends one, and Kafka's controller would store a credential no login can match (empty
 * salt) or fail with UNKNOWN_SERVER_ERROR (empty HMAC key).
 *
 * <p>The controller keeps StoredKey and ServerKey, derived here from the salted password the
 * client sent ({@link ScramKeys}); the salted password itself is never written. The answer
 * lists the users whose deletion succeeded, then those whose upsertion succeeded, then the
 * failed ones (Kafka's grouping), each group in the order the request first names them, where
 * Kafka's order within a group is a hash map's. It carries the offset of its commit, as the
 * ACL writes do.
 */
public final class ScramControlManager {
    static final String DUPLICATE = "A user credential cannot be altered twice in the same request";

    private final ControllerState state;

    public ScramControlManager(ControllerState state) {
        this.state = state;
    }

    /** Remove {@code name}'s credential for the mechanism of wire number {@code mechanism}. */
    public record Deletion(String name, int mechanism) {
    }

    /** Store a credential for {@code name} from the salted password the client computed (RFC 5802 Hi()). */
    public record Upsertion(String name, int mechanism, int iterations, ByteString salt, ByteString saltedPassword) {
        /** Without the salt and salted password: a salted password logs in as the user would. */
        @Override
        public String toString() {
            return "Upsertion[name=" + name + ", mechanism=" + mechanism + ", iterations=" + iterations
                    + ", salt=[redacted], saltedPassword=[redacted]]";
        }
    }

    /** The outcome for one user of the request. */
    public record UserResult(String user, ApiError error) {
    }

    /** One result per user named, and the offset of the commit ({@link AclControlManager#NO_COMMIT} when refused). */
    public record AlterResult(List<UserResult> results, long commitOffset) {
        public AlterResult {
            results = List.copyOf(results);
        }
    }

    /** @param nextOffset the offset the first record will land at */
    public ControllerResult<AlterResult> alterCredentials(List<Deletion> deletions, List<Upsertion> upsertions,
                                                          long nextOffset) {
        ScramImage scram = state.image().scram();
        Map<String, Deletion> toDelete = new LinkedHashMap<>();
        Map<String, Upsertion> toUpsert = new LinkedHashMap<>();
        Map<String, ApiError> failed = new LinkedHashMap<>();
        for (Deletion deletion : deletions) {
            String user = deletion.name();
            if (failed.containsKey(user)) {
                continue;
            }
            if (toDelete.remove(user) != null) {
                failed.put(user, ApiError.of(ErrorCode.DUPLICATE_RESOURCE, DUPLICATE));
                continue;
            }
            Optional<ApiError> bad = checkDeletion(deletion, scram);
            if (bad.isPresent()) {
                failed.put(user, bad.get());
            } else {
                toDelete.put(user, deletion);
            }
        }
        for (Upsertion upsertion : upsertions) {
            String user = upsertion.name();
            if (failed.containsKey(user)) {
                continue;
            }
            if (toDelete.remove(user) != null || toUpsert.remove(user) != null) {
                failed.put(user, ApiError.of(ErrorCode.DUPLICATE_RESOURCE, DUPLICATE));
                continue;
            }
            Optional<ApiError> bad = checkUpsertion(upsertion);
            if (bad.isPresent()) {
                failed.put(user, bad.get());
            } else {
                toUpsert.put(user, upsertion);
            }
        }
        return decided(toDelete, toUpsert, failed, nextOffset);
    }

    private static ControllerResult<AlterResult> decided(Map<String, Deletion> toDelete,
                                                         Map<String, Upsertion> toUpsert,
                                                         Map<String, ApiError> failed, long nextOffset) {
        List<MetadataRecord> records = new ArrayList<>();
        List<UserResult> results = new ArrayList<>();
        for (Deletion deletion : toDelete.values()) {
            records.add(MetadataRecord.newBuilder().setRemoveUserScramCredential(RemoveUserScramCredentialRecord
                    .newBuilder().setName(deletion.name()).setMechanism(deletion.mechanism())).build());
            results.add(new UserResult(deletion.name(), ApiError.NONE));
        }
        for (Upsertion upsertion : toUpsert.values()) {
            records.add(MetadataRecord.newBuilder().setUserScramCredential(record(upsertion)).build());
            results.add(new UserResult(upsertion.name(), ApiError.NONE));
        }
        failed.forEach((user, error) -> results.add(new UserResult(user, error)));
        return ControllerResult.of(records, new AlterResult(results, nextOffset + records.size() - 1));
    }

    /** The record of a checked upsertion: StoredKey and ServerKey derived from the salted password. */
    static UserScramCredentialRecord record(Upsertion upsertion) {
        ScramMechanism mechanism = ScramMechanism.fromType(upsertion.mechanism()).orElseThrow();
        StoredScramCredential credential = ScramKeys.credential(mechanism, upsertion.salt().toByteArray(),
                upsertion.saltedPassword().toByteArray(), upsertion.iterations());
        return UserScramCredentialRecord.newBuilder().setName(upsertion.name()).setMechanism(mechanism.type())
                .setSalt(upsertion.salt()).setStoredKey(ByteString.copyFrom(credential.storedKey()))
                .setServerKey(ByteString.copyFrom(credential.serverKey())).setIterations(upsertion.iterations())
                .build();
    }

    private static Optional<ApiError> checkDeletion(Deletion deletion, ScramImage scram) {
        Optional<ApiError> bad = checkNameAndMechanism(deletion.name(), deletion.mechanism());
        if (bad.isPresent()) {
            return bad;
        }
        ScramMechanism mechanism = ScramMechanism.fromType(deletion.mechanism()).orElseThrow();
        if (scram.credential(deletion.name(), mechanism).isEmpty()) {
            return Optional.of(ApiError.of(ErrorCode.RESOURCE_NOT_FOUND,
                    "Attempt to delete a user credential that does not exist"));
        }
        return Optional.empty();
    }

    /** Kafka's checks of an upsertion, and ours of its salt and salted password; empty when it may be stored. */
    public static Optional<ApiError> checkUpsertion(Upsertion upsertion) {
        Optional<ApiError> bad = checkNameAndMechanism(upsertion.name(), upsertion.mechanism());
        if (bad.isPresent()) {
            return bad;
        }
        if (upsertion.iterations() < ScramMechanism.ITERATIONS_MIN) {
            return unacceptable("Too few iterations");
        }
        if (upsertion.iterations() > ScramMechanism.ITERATIONS_MAX) {
            return unacceptable("Too many iterations");
        }
        if (upsertion.salt().isEmpty()) {
            return unacceptable("Salt must not be empty");
        }
        if (upsertion.saltedPassword().isEmpty()) {
            return unacceptable("Salted password must not be empty");
        }
        return Optional.empty();
    }

    private static Optional<ApiError> checkNameAndMechanism(String name, int mechanism) {
        if (name.isEmpty()) {
            return unacceptable("Username must not be empty");
        }
        if (ScramMechanism.fromType(mechanism).isEmpty()) {
            return Optional.of(ApiError.of(ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"));
        }
        return Optional.empty();
    }

    private static Optional<ApiError> unacceptable(String message) {
        return Optional.of(ApiError.of(ErrorCode.UNACCEPTABLE_CREDENTIAL, message));
    }
}
