package io.metaquorum.security;

/**
 * Who a caller is, as Kafka writes it: a type and a name joined by a colon ({@code User:alice}).
 * The text form is what ACL records and {@code super.users} hold, so {@link #toString()} and
 * {@link #parse(String)} are inverses.
 */
public record Principal(String type, String name) {
    /** The only type a TLS or plaintext listener gives a caller. */
    public static final String USER_TYPE = "User";

    /** A caller that did not authenticate: a plaintext listener, or TLS without a client certificate. */
    public static final Principal ANONYMOUS = new Principal(USER_TYPE, "ANONYMOUS");

    /**
     * Invariant: the type is not empty and has no colon, so the text form splits back into
     * both parts. The name may be empty, as in Kafka: a mapping rule such as
     * {@code RULE:(.*)//} gives one, and it must still be a principal an ACL can name.
     */
    public Principal {
        if (type.isEmpty() || type.contains(":")) {
            throw new IllegalArgumentException("a principal's type is not empty and has no colon, got '" + type
                    + "'");
        }
    }

    /** A {@code User:} principal, the type TLS and ACLs use. */
    public static Principal user(String name) {
        return new Principal(USER_TYPE, name);
    }

    /**
     * Parses {@code TYPE:NAME}, splitting at the first colon: the name may hold colons, as
     * Kafka allows. Throws {@link IllegalArgumentException} for text without a colon or with
     * an empty type.
     */
    public static Principal parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected a principal as TYPE:NAME (e.g. User:alice), got '"
                    + text + "'");
        }
        return new Principal(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
