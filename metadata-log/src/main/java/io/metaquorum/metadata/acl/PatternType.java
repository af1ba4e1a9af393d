package io.metaquorum.metadata.acl;

import java.util.Optional;

/**
 * How an ACL's resource name matches (Kafka's codes): LITERAL names one resource (or every one
 * with {@code *}), PREFIXED every resource whose name starts with it; ANY and MATCH exist only
 * in filters.
 */
public enum PatternType {
    UNKNOWN(0),
    ANY(1),
    MATCH(2),
    LITERAL(3),
    PREFIXED(4);

    private final int code;

    PatternType(int code) {
        this.code = code;
    }

    /** The code written in records and on the wire. */
    public int code() {
        return code;
    }

    /** The constant with {@code code}, empty for a code Kafka does not define. */
    public static Optional<PatternType> fromCode(int code) {
        for (PatternType value : values()) {
            if (value.code == code) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
