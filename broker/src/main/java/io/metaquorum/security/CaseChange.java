package io.metaquorum.security;

import java.util.Locale;

/** The optional {@code L} or {@code U} after a rule's replacement. */
enum CaseChange {
    NONE(""), LOWER("L"), UPPER("U");

    private final String flag;

    CaseChange(String flag) {
        this.flag = flag;
    }

    /** The change a rule's flag text asks for; the grammar admits only "", "L" and "U". */
    static CaseChange ofFlag(String flag) {
        for (CaseChange change : values()) {
            if (change.flag.equals(flag)) {
                return change;
            }
        }
        throw new IllegalArgumentException("a rule's case flag is L, U or nothing, got '" + flag + "'");
    }

    /**
     * English rules, not the JVM's default locale: a Turkish default would turn {@code I} into
     * a dotless {@code ı}, and the same certificate must map to the same principal everywhere.
     */
    String apply(String text) {
        return switch (this) {
            case NONE -> text;
            case LOWER -> text.toLowerCase(Locale.ENGLISH);
            case UPPER -> text.toUpperCase(Locale.ENGLISH);
        };
    }
}
