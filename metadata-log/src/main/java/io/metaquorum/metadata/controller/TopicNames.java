package io.metaquorum.metadata.controller;

import io.metaquorum.metadata.image.TopicsImage;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.raft.TopicIds;
import java.util.Collection;
import java.util.Optional;

/**
 * Kafka's topic-name rules: at most 249 characters of {@code [a-zA-Z0-9._-]}, not empty,
 * not {@code .} or {@code ..}; internal names may not be created; and since {@code .} and
 * {@code _} map to the same metric name, two topics may not differ only by them.
 */
final class TopicNames {
    static final int NAME_LENGTH_MAX = 249;

    private TopicNames() {
    }

    /** INVALID_TOPIC_EXCEPTION for an illegal name, else empty. */
    static Optional<ApiError> illegal(String name) {
        if (name.isEmpty()) {
            return invalid("Topic name is empty.");
        }
        if (name.equals(".") || name.equals("..")) {
            return invalid("Topic name \"" + name + "\" is not allowed: \".\" and \"..\" are reserved.");
        }
        if (name.length() > NAME_LENGTH_MAX) {
            return invalid("Topic name is " + name.length() + " characters long, longer than the "
                    + NAME_LENGTH_MAX + " allowed: " + name);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!legal) {
                return invalid("Topic name \"" + name + "\" contains '" + c + "'; only ASCII letters, digits, "
                        + "'.', '_' and '-' are allowed.");
            }
        }
        return Optional.empty();
    }

    /** INVALID_REQUEST for a reserved (internal) name, else empty. */
    static Optional<ApiError> reserved(String name) {
        if (name.equals(TopicIds.METADATA_TOPIC_NAME)) {
            return Optional.of(ApiError.of(ErrorCode.INVALID_REQUEST,
                    "Creation of internal topic " + name + " is prohibited."));
        }
        return Optional.empty();
    }

    /**
     * INVALID_TOPIC_EXCEPTION when {@code name} differs from an existing topic, or from one
     * created earlier in the same request, only by '.' versus '_'.
     */
    static Optional<ApiError> collision(String name, TopicsImage topics, Collection<String> createdInRequest) {
        if (name.indexOf('.') < 0 && name.indexOf('_') < 0) {
            return Optional.empty();
        }
        String normalized = normalized(name);
        for (String other : createdInRequest) {
            if (!other.equals(name) && normalized(other).equals(normalized)) {
                return collides(name, other);
            }
        }
        for (String existing : topics.byName().keySet()) {
            if (!existing.equals(name) && normalized(existing).equals(normalized)) {
                return collides(name, existing);
            }
        }
        return Optional.empty();
    }

    private static Optional<ApiError> collides(String name, String existing) {
        return invalid("Topic '" + name + "' collides with existing topic: " + existing);
    }

    private static String normalized(String name) {
        return name.replace('.', '_');
    }

    private static Optional<ApiError> invalid(String message) {
        return Optional.of(ApiError.of(ErrorCode.INVALID_TOPIC_EXCEPTION, message));
    }
}
