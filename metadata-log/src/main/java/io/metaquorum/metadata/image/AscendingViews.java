package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.ResourceType;
import java.util.Arrays;

/**
 * What {@link AscendingVerdicts} walks, worked out from one {@link AclIndex} on first use and
 * kept with it: per resource type, its patterns sorted by name, and per principal, their
 * answers as {@link PatternAcls#masks}. Sorting is O(n log n) and a principal's masks O(n) in
 * the type's patterns, far more than one walk costs, so they are kept for the index's life: an
 * index lives until the next ACL change, while listings by the same few principals repeat.
 *
 * <p>A cache beside an immutable value, like {@link String#hashCode}'s: everything here is a
 * function of the index, so what a walk answers never depends on what is cached, only its cost
 * does. Threads may race to fill it; each stores an immutable object (final fields) and the
 * loser's work is simply dropped, so no lock is needed and no half-built object is seen. At most
 * {@link #PRINCIPALS_KEPT} principals' masks are kept: a new one beyond that starts the list
 * again, which bounds the memory at a cost only for a cluster with more listing principals.
 */
final class AscendingViews {
    static final int PRINCIPALS_KEPT = 32;
    /** One slot per resource type; a constant, since replay builds an index per ACL record. */
    private static final int TYPES = ResourceType.values().length;

    /** One principal's walkable view of one resource type. */
    record Compiled(String principal, int typeOrdinal, SortedPatterns literal, long[] literalMasks,
                    SortedPatterns prefixed, long[] prefixedMasks) {
    }

    private final SortedPatterns[] literalByType = new SortedPatterns[TYPES];
    private final SortedPatterns[] prefixedByType = new SortedPatterns[TYPES];
    private Compiled[] compiled = new Compiled[0];

    /** {@code principal}'s view of {@code type} over {@code literal} and {@code prefixed}, the index's maps. */
    Compiled compiled(ResourceType type, String principal, PatternMap literal, PatternMap prefixed) {
        Compiled[] kept = compiled;
        for (Compiled c : kept) {
            if (c.typeOrdinal() == type.ordinal() && c.principal().equals(principal)) {
                return c;
            }
        }
        SortedPatterns sortedLiteral = sorted(literalByType, type, literal);
        SortedPatterns sortedPrefixed = sorted(prefixedByType, type, prefixed);
        Compiled made = new Compiled(principal, type.ordinal(), sortedLiteral, sortedLiteral.masksOf(principal),
                sortedPrefixed, sortedPrefixed.masksOf(principal));
        Compiled[] next;
        if (kept.length >= PRINCIPALS_KEPT) {
            next = new Compiled[] {made};
        } else {
            next = Arrays.copyOf(kept, kept.length + 1);
            next[kept.length] = made;
        }
        compiled = next;
        return made;
    }

    private static SortedPatterns sorted(SortedPatterns[] byType, ResourceType type, PatternMap map) {
        SortedPatterns sorted = byType[type.ordinal()];
        if (sorted == null) {
            PatternAcls[] patterns = map.sortedOfType(type.code());
            sorted = patterns.length == 0 ? SortedPatterns.NONE : new SortedPatterns(patterns);
            byType[type.ordinal()] = sorted;
        }
        return sorted;
    }
}
