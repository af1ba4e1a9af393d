package io.metaquorum.metadata.acl;

import java.util.Optional;

/** Whether an ACL allows or denies (Kafka's codes); ANY exists only in filters. */
public enum PermissionType {
    UNKNOWN(0),
    ANY(1),
    DENY(2),
    ALLOW(3);

    private final int code;

    PermissionType(int code) {
        this.code = code;
    }

    /** The code written in records and on the wire. */
    public int code() {
        return code;
    }

    /** The constant with {@code code}, empty for a code Kafka does not define. */
    public static Optional<PermissionType> fromCode(int code) {
        for (PermissionType value : values()) {
            if (value.code == code) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
