package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import org.pcollections.TreePMap;

/**
 * The ACLs of one resource pattern (a resource type, LITERAL or PREFIXED, and a name), by
 * principal and then by id. A decision looks up two principals here (its own and
 * {@code User:*}) instead of reading every ACL of the pattern, so many principals on one
 * pattern cost nothing; the entries of one principal come in id order, which is what makes
 * the deciding ACL of an explanation the lowest id.
 *
 * <p>Invariant: {@code size} is the number of entries, never zero (an emptied pattern leaves
 * the index), and no principal maps to an empty set.
 */
public final class PatternAcls {
    private static final TreePMap<UuidKey, AclEntry> NONE = TreePMap.empty();

    private final HashMap<String, TreePMap<UuidKey, AclEntry>> byPrincipal;
    private final int size;

    private PatternAcls(HashMap<String, TreePMap<UuidKey, AclEntry>> byPrincipal, int size) {
        this.byPrincipal = byPrincipal;
        this.size = size;
    }

    static PatternAcls of(AclEntry entry) {
        return new PatternAcls(HashMap.empty(), 0).with(entry);
    }

    /** The entries naming exactly {@code principal} ({@code TYPE:NAME}), in id order; empty if none. */
    public Iterable<AclEntry> entriesOf(String principal) {
        return byPrincipal.getOrElse(principal, NONE).values();
    }

    /** How many ACLs the pattern has, over every principal. */
    public int size() {
        return size;
    }

    PatternAcls with(AclEntry entry) {
        TreePMap<UuidKey, AclEntry> entries = byPrincipal.getOrElse(entry.principal(), NONE);
        return new PatternAcls(byPrincipal.put(entry.principal(), entries.plus(entry.id(), entry)), size + 1);
    }

    /** Without {@code entry}; null when it was the pattern's last. */
    PatternAcls without(AclEntry entry) {
        if (size == 1) {
            return null;
        }
        TreePMap<UuidKey, AclEntry> entries = byPrincipal.getOrElse(entry.principal(), NONE).minus(entry.id());
        return new PatternAcls(entries.isEmpty() ? byPrincipal.remove(entry.principal())
                : byPrincipal.put(entry.principal(), entries), size - 1);
    }
}
