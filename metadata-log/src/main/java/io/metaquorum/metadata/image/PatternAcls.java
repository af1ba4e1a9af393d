package io.metaquorum.metadata.image;

import io.vavr.collection.Array;
import io.vavr.collection.HashMap;

/**
 * The ACLs of one resource pattern (a resource type, LITERAL or PREFIXED, and a name), by
 * principal, each principal's in id order. A decision looks up two principals here (its own and
 * {@code User:*}) instead of reading every ACL of the pattern, so many principals on one
 * pattern cost nothing; the id order is what makes the deciding ACL of an explanation the
 * lowest id. A principal's entries are an immutable array, copied on change: ACLs change
 * rarely, and a decision reads them without allocating.
 *
 * <p>Invariant: {@code size} is the number of entries, never zero (an emptied pattern leaves
 * the index), and no principal maps to an empty array.
 */
public final class PatternAcls {
    private static final Array<AclEntry> NONE = Array.empty();

    private final HashMap<String, Array<AclEntry>> byPrincipal;
    /** The {@code User:*} entries, asked for by every decision, kept beside the map. Invariant: byPrincipal's. */
    private final Array<AclEntry> wildcard;
    private final int size;

    private PatternAcls(HashMap<String, Array<AclEntry>> byPrincipal, int size) {
        this.byPrincipal = byPrincipal;
        this.wildcard = byPrincipal.getOrElse(AclEntry.WILDCARD_PRINCIPAL, NONE);
        this.size = size;
    }

    static PatternAcls of(AclEntry entry) {
        return new PatternAcls(HashMap.empty(), 0).with(entry);
    }

    /** The entries naming exactly {@code principal} ({@code TYPE:NAME}), in id order; empty if none. */
    public Array<AclEntry> entriesOf(String principal) {
        return principal.equals(AclEntry.WILDCARD_PRINCIPAL) ? wildcard : byPrincipal.getOrElse(principal, NONE);
    }

    /** How many ACLs the pattern has, over every principal. */
    public int size() {
        return size;
    }

    PatternAcls with(AclEntry entry) {
        Array<AclEntry> entries = byPrincipal.getOrElse(entry.principal(), NONE);
        int at = 0;
        while (at < entries.size() && entries.get(at).id().compareTo(entry.id()) < 0) {
            at++;
        }
        return new PatternAcls(byPrincipal.put(entry.principal(), entries.insert(at, entry)), size + 1);
    }

    /** Without {@code entry}; null when it was the pattern's last. */
    PatternAcls without(AclEntry entry) {
        if (size == 1) {
            return null;
        }
        Array<AclEntry> entries = byPrincipal.getOrElse(entry.principal(), NONE)
                .removeFirst(e -> e.id().equals(entry.id()));
        return new PatternAcls(entries.isEmpty() ? byPrincipal.remove(entry.principal())
                : byPrincipal.put(entry.principal(), entries), size - 1);
    }
}
