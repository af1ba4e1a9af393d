package io.metaquorum.metadata.acl;

import java.util.Optional;

/** The kind of resource an ACL names (Kafka's codes, as in {@code AccessControlEntryRecord.resource_type}). */
public enum ResourceType {
    UNKNOWN(0),
    ANY(1),
    TOPIC(2),
    GROUP(3),
    CLUSTER(4),
    TRANSACTIONAL_ID(5),
    DELEGATION_TOKEN(6),
    USER(7);

    private final int code;

    ResourceType(int code) {
        this.code = code;
    }

    /** The code written in records and on the wire. */
    public int code() {
        return code;
    }

    /** The constant with {@code code}, empty for a code Kafka does not define. */
    public static Optional<ResourceType> fromCode(int code) {
        for (ResourceType value : values()) {
            if (value.code == code) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
