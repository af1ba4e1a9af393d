package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.ScramImage;
import io.metaquorum.metadata.scram.ScramMechanism;
import io.metaquorum.metadata.scram.StoredScramCredential;
import io.metaquorum.protocol.ErrorCode;
import io.vavr.Tuple2;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DescribeUserScramCredentials answered from an image, with Kafka's semantics: no user named
 * means every user with a credential, by name; a named user without one is RESOURCE_NOT_FOUND,
 * a user named twice DUPLICATE_RESOURCE (one result for it). Named users are answered in the
 * order first named. Only mechanisms and iterations are told, never a salt or key.
 */
public final class ScramDescriptions {
    private ScramDescriptions() {
    }

    /** A mechanism a user has a credential for, and its iterations. */
    public record CredentialInfo(ScramMechanism mechanism, int iterations) {
    }

    /** One user's answer: an error, or its credentials by mechanism. */
    public record UserDescription(String user, ApiError error, List<CredentialInfo> credentials) {
        public UserDescription {
            credentials = List.copyOf(credentials);
        }
    }

    public static List<UserDescription> describe(ScramImage scram, List<String> users) {
        List<UserDescription> described = new ArrayList<>();
        if (users.isEmpty()) {
            scram.users().forEach(user -> described.add(found(scram, user)));
            return described;
        }
        Map<String, Boolean> twice = new LinkedHashMap<>();
        users.forEach(user -> twice.merge(user, false, (a, b) -> true));
        twice.forEach((user, duplicate) -> {
            if (duplicate) {
                described.add(new UserDescription(user, ApiError.of(ErrorCode.DUPLICATE_RESOURCE,
                        "Cannot describe SCRAM credentials for the same user twice in a single request: " + user),
                        List.of()));
            } else if (scram.credentials(user).isEmpty()) {
                described.add(new UserDescription(user, ApiError.of(ErrorCode.RESOURCE_NOT_FOUND,
                        "Attempt to describe a user credential that does not exist: " + user), List.of()));
            } else {
                described.add(found(scram, user));
            }
        });
        return described;
    }

    private static UserDescription found(ScramImage scram, String user) {
        List<CredentialInfo> infos = new ArrayList<>();
        for (Tuple2<ScramMechanism, StoredScramCredential> entry : scram.credentials(user)) {
            infos.add(new CredentialInfo(entry._1(), entry._2().iterations()));
        }
        return new UserDescription(user, ApiError.NONE, infos);
    }
}
