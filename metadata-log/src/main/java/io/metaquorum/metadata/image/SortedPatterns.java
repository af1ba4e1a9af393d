package io.metaquorum.metadata.image;

/**
 * The patterns of one resource type and pattern type (LITERAL or PREFIXED), sorted by name,
 * for walks that meet many resources in name order ({@link AscendingVerdicts}). The names are
 * copies made here, one after another, so that a walk that reads them in order reads memory in
 * order, rather than strings scattered over the heap by replay. Immutable.
 */
final class SortedPatterns {
    static final SortedPatterns NONE = new SortedPatterns(new PatternAcls[0]);

    private final PatternAcls[] patterns;
    private final String[] names;

    /** {@code patterns}, of one type, sorted by name without duplicates. */
    SortedPatterns(PatternAcls[] patterns) {
        this.patterns = patterns;
        this.names = new String[patterns.length];
        for (int i = 0; i < patterns.length; i++) {
            names[i] = new String(patterns[i].name().toCharArray());
            if (i > 0 && names[i - 1].compareTo(names[i]) >= 0) {
                throw new IllegalArgumentException("patterns out of order: " + names[i - 1] + ", " + names[i]);
            }
        }
    }

    int size() {
        return patterns.length;
    }

    PatternAcls pattern(int i) {
        return patterns[i];
    }

    String name(int i) {
        return names[i];
    }

    /** {@link PatternAcls#masks} of every pattern for {@code principal}, in this order. */
    long[] masksOf(String principal) {
        long[] masks = new long[patterns.length];
        for (int i = 0; i < patterns.length; i++) {
            masks[i] = patterns[i].masks(principal);
        }
        return masks;
    }
}
