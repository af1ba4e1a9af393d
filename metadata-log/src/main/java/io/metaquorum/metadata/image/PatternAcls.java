package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclOperation;
import io.vavr.collection.Array;
import java.util.Arrays;

/**
 * The ACLs of one resource pattern (a resource type, LITERAL or PREFIXED, and a name), by
 * principal, each principal's in id order. A decision looks up two principals here (its own and
 * {@code User:*}) instead of reading every ACL of the pattern, so many principals on one
 * pattern cost a binary search; the id order is what makes the deciding ACL of an explanation
 * the lowest id. A principal's ACLs are an immutable {@link PrincipalAcls}, rebuilt on change.
 *
 * <p>The principals are a plain array sorted by name rather than a hash map: a decision is
 * bound by the memory it touches (patterns are many and each decision reads a few of them),
 * and an array holds the pattern's principals in one or two cache lines where a persistent map
 * takes several objects. The price is a copy of the array when an ACL of the pattern changes:
 * O(p) for p principals on the pattern, microseconds even for thousands, and ACLs change rarely.
 *
 * <p>Invariant: {@code size} is the number of entries, never zero (an emptied pattern leaves
 * the index); {@code principals} is sorted by principal, without duplicates or empty sets.
 */
public final class PatternAcls {
    /** The bit of {@link #masks} set when an ACL of the principal or of {@code User:*} names a host. */
    static final long HOST_BOUND = 1L << 32;
    /** The pattern's key, carried here so that a lookup in {@link PatternMap} reads no key object. */
    private final int typeCode;
    private final String name;
    private final int keyHash;
    private final PrincipalAcls[] principals;
    /** The {@code User:*} ACLs, asked for by every decision, kept beside the array. Invariant: the array's. */
    private final PrincipalAcls wildcard;
    private final int size;

    private PatternAcls(int typeCode, String name, PrincipalAcls[] principals, int size) {
        this.typeCode = typeCode;
        this.name = name;
        this.keyHash = PatternKey.hash(typeCode, name.hashCode());
        this.principals = principals;
        int at = find(AclEntry.WILDCARD_PRINCIPAL);
        this.wildcard = at >= 0 ? principals[at] : PrincipalAcls.NONE;
        this.size = size;
    }

    static PatternAcls of(AclEntry entry) {
        return new PatternAcls(entry.resourceType().code(), entry.resourceName(), new PrincipalAcls[0], 0)
                .with(entry);
    }

    /** The entries naming exactly {@code principal} ({@code TYPE:NAME}), in id order; empty if none. */
    public Array<AclEntry> entriesOf(String principal) {
        return aclsOf(principal).entries();
    }

    /**
     * What the ACLs of {@code principal} and of {@code User:*} say about {@code operation} from
     * {@code host}: the bits of {@link PrincipalAcls#verdict}, or 0 if none applies.
     */
    public int verdict(String principal, String host, AclOperation operation) {
        return wildcard.verdict(host, operation) | aclsOf(principal).verdict(host, operation);
    }

    /**
     * What the ACLs of {@code principal} and of {@code User:*} say about every operation, for
     * callers that ask many operations or patterns for one principal ({@link AscendingVerdicts}):
     * bit {@code op.ordinal()} set if an ACL for every host denies {@code op}, bit
     * {@code 16 + op.ordinal()} if one allows it, and {@link #HOST_BOUND} if an ACL names a host
     * (then {@link #verdict} must be asked, with the caller's address).
     */
    long masks(String principal) {
        return wildcard.masks() | aclsOf(principal).masks();
    }

    /** How many ACLs the pattern has, over every principal. */
    public int size() {
        return size;
    }

    int typeCode() {
        return typeCode;
    }

    /** The pattern's resource name (a LITERAL name or a PREFIXED prefix). */
    String name() {
        return name;
    }

    /** The hash of the pattern's {@link PatternKey}. */
    int keyHash() {
        return keyHash;
    }

    /** Whether this pattern's key is type {@code typeCode} and the first {@code length} characters of {@code name}. */
    boolean names(int typeCode, String name, int length) {
        return this.typeCode == typeCode && this.name.length() == length && PatternKey.sameName(this.name, name, length);
    }

    private PrincipalAcls aclsOf(String principal) {
        int at = find(principal);
        return at >= 0 ? principals[at] : PrincipalAcls.NONE;
    }

    /** The index of {@code principal} in the sorted array, or {@code -(insertion point) - 1}. */
    private int find(String principal) {
        int low = 0;
        int high = principals.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = principals[mid].principal().compareTo(principal);
            if (c == 0) {
                return mid;
            }
            if (c < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -low - 1;
    }

    PatternAcls with(AclEntry entry) {
        Array<AclEntry> entries = entriesOf(entry.principal());
        int at = 0;
        while (at < entries.size() && entries.get(at).id().compareTo(entry.id()) < 0) {
            at++;
        }
        return withPrincipal(entry.principal(), entries.insert(at, entry), size + 1);
    }

    /** Without {@code entry}; null when it was the pattern's last. */
    PatternAcls without(AclEntry entry) {
        if (size == 1) {
            return null;
        }
        Array<AclEntry> entries = entriesOf(entry.principal()).removeFirst(e -> e.id().equals(entry.id()));
        return withPrincipal(entry.principal(), entries, size - 1);
    }

    /** This pattern with {@code principal}'s entries replaced by {@code entries} (none: the principal goes). */
    private PatternAcls withPrincipal(String principal, Array<AclEntry> entries, int newSize) {
        int at = find(principal);
        PrincipalAcls[] next;
        if (entries.isEmpty()) {
            next = new PrincipalAcls[principals.length - 1];
            System.arraycopy(principals, 0, next, 0, at);
            System.arraycopy(principals, at + 1, next, at, principals.length - at - 1);
        } else if (at >= 0) {
            next = principals.clone();
            next[at] = PrincipalAcls.of(principal, entries);
        } else {
            int insert = -at - 1;
            next = Arrays.copyOf(principals, principals.length + 1);
            System.arraycopy(principals, insert, next, insert + 1, principals.length - insert);
            next[insert] = PrincipalAcls.of(principal, entries);
        }
        return new PatternAcls(typeCode, name, next, newSize);
    }
}
