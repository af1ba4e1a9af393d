package io.metaquorum.metadata.acl;

import java.util.Optional;

/** An operation an ACL allows or denies (Kafka's codes); ANY exists only in filters, ALL matches every operation. */
public enum AclOperation {
    UNKNOWN(0),
    ANY(1),
    ALL(2),
    READ(3),
    WRITE(4),
    CREATE(5),
    DELETE(6),
    ALTER(7),
    DESCRIBE(8),
    CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10),
    ALTER_CONFIGS(11),
    IDEMPOTENT_WRITE(12),
    CREATE_TOKENS(13),
    DESCRIBE_TOKENS(14),
    TWO_PHASE_COMMIT(15);

    private final int code;

    AclOperation(int code) {
        this.code = code;
    }

    /** The code written in records and on the wire. */
    public int code() {
        return code;
    }

    /** The constant with {@code code}, empty for a code Kafka does not define. */
    public static Optional<AclOperation> fromCode(int code) {
        for (AclOperation value : values()) {
            if (value.code == code) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
