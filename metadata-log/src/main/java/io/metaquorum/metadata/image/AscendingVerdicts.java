package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclOperation;

/**
 * {@link AclIndex#verdict} for one principal, host, operation and resource type, asked for
 * resource names in ascending order ({@link String#compareTo}), as a listing of every topic
 * meets them in the image's name index. Rather than look up each name's patterns in the hash
 * maps (cold cache lines for every name), it walks the type's patterns in name order beside
 * the names, a merge: the LITERAL pattern equal to the name, if any, is the next one at or after
 * the last name's; the PREFIXED patterns that are prefixes of the name are kept on a stack, each
 * a prefix of the next. Proof that nothing is missed: the names that start with a pattern are
 * one contiguous run in sorted order, beginning with the pattern itself, so a pattern before the
 * name that is not its prefix is a prefix of no later name either, and a pattern on the stack
 * that is not a prefix of the name is done with for good.
 *
 * <p>The answers per pattern come from {@link PatternAcls#masks} worked out once per principal
 * and index ({@link AscendingViews}); a pattern whose ACLs name a host is asked with the host.
 * A walk is one request's: not thread-safe, and it refuses a name not after the last one.
 */
public final class AscendingVerdicts {
    private final SortedPatterns literal;
    private final long[] literalMasks;
    private final SortedPatterns prefixed;
    private final long[] prefixedMasks;
    private final String principal;
    private final String host;
    private final AclOperation operation;
    private final long denyBit;
    private final long allowBit;
    /** The LITERAL {@code *} pattern's bits with {@link AclIndex#MATCHED}, or 0 if the type has none. */
    private final int wildcardVerdict;
    /** The PREFIXED patterns that are prefixes of the last name, shortest first (their indexes). */
    private final int[] stack;
    /** For each stack depth, the OR of the verdicts of the patterns up to it, with MATCHED. */
    private final int[] stackVerdicts;
    private int depth;
    private int nextLiteral;
    private int nextPrefixed;
    private String last;

    AscendingVerdicts(AscendingViews.Compiled compiled, PatternAcls wildcard, int maxNesting, String principal,
                      String host, AclOperation operation) {
        this.literal = compiled.literal();
        this.literalMasks = compiled.literalMasks();
        this.prefixed = compiled.prefixed();
        this.prefixedMasks = compiled.prefixedMasks();
        this.principal = principal;
        this.host = host;
        this.operation = operation;
        this.denyBit = 1L << operation.ordinal();
        this.allowBit = 1L << (16 + operation.ordinal());
        this.wildcardVerdict = wildcard == null ? 0 : AclIndex.MATCHED | wildcard.verdict(principal, host, operation);
        this.stack = new int[maxNesting];
        this.stackVerdicts = new int[maxNesting];
    }

    /**
     * {@link AclIndex#verdict} of {@code name}, which must come after every name asked before
     * in this walk.
     */
    public int verdict(String name) {
        if (last != null && last.compareTo(name) >= 0) {
            throw new IllegalArgumentException("names must ascend: '" + name + "' after '" + last + "'");
        }
        last = name;
        int verdict = literalVerdict(name) | prefixedVerdict(name);
        // As AclIndex#verdict: Kafka's scan skips the LITERAL * for a name starting with *.
        if (wildcardVerdict != 0 && !name.startsWith(AclEntry.WILDCARD)) {
            verdict |= wildcardVerdict;
        }
        return verdict;
    }

    private int literalVerdict(String name) {
        while (nextLiteral < literal.size()) {
            int c = literal.name(nextLiteral).compareTo(name);
            if (c > 0) {
                return 0;
            }
            nextLiteral++;
            if (c == 0) {
                int at = nextLiteral - 1;
                return AclIndex.MATCHED | bits(literal.pattern(at), literalMasks[at]);
            }
        }
        return 0;
    }

    private int prefixedVerdict(String name) {
        while (depth > 0 && !name.startsWith(prefixed.name(stack[depth - 1]))) {
            depth--;
        }
        while (nextPrefixed < prefixed.size()) {
            String pattern = prefixed.name(nextPrefixed);
            if (name.startsWith(pattern)) {
                // Every pattern on the stack is a prefix of the name, and so of this longer one.
                int below = depth == 0 ? 0 : stackVerdicts[depth - 1];
                stack[depth] = nextPrefixed;
                stackVerdicts[depth] = below | AclIndex.MATCHED | bits(prefixed.pattern(nextPrefixed),
                        prefixedMasks[nextPrefixed]);
                depth++;
            } else if (pattern.compareTo(name) > 0) {
                break;
            }
            nextPrefixed++;
        }
        return depth == 0 ? 0 : stackVerdicts[depth - 1];
    }

    private int bits(PatternAcls pattern, long masks) {
        if ((masks & PatternAcls.HOST_BOUND) != 0) {
            return pattern.verdict(principal, host, operation);
        }
        return ((masks & denyBit) != 0 ? PrincipalAcls.DENIES : 0) | ((masks & allowBit) != 0 ? PrincipalAcls.ALLOWS : 0);
    }
}
