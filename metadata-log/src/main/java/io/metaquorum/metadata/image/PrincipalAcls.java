package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PermissionType;
import io.vavr.collection.Array;

/**
 * One principal's ACLs on one resource pattern, in id order, with their answer worked out at
 * replay: for each operation a request can name, whether an ACL for every host ({@code *})
 * denies it and whether one allows it ({@link AclEntry#covers}, one bit per operation). A
 * decision that needs only the answer ({@link #verdict}) then reads two bits, not the
 * entries; only ACLs that name a host or range are read, as whether they apply depends on the
 * caller's address. The entries stay for the decisions that name their deciding ACL.
 *
 * <p>Immutable, and a function of its entries: replay builds a new one when they change.
 */
public final class PrincipalAcls {
    private static final AclEntry[] NO_ENTRIES = {};
    /** The bit of {@link #verdict} set when an applying ACL denies. */
    public static final int DENIES = 1;
    /** The bit of {@link #verdict} set when an applying ACL allows. */
    public static final int ALLOWS = 2;

    static final PrincipalAcls NONE = new PrincipalAcls("", Array.empty(), 0, 0, NO_ENTRIES);
    private static final AclOperation[] OPERATIONS = AclOperation.values();

    private final String principal;
    private final Array<AclEntry> entries;
    /** Bit {@code op.ordinal()}: an ACL for every host denies {@code op}. */
    private final int deniedEverywhere;
    /** Bit {@code op.ordinal()}: an ACL for every host allows {@code op}. */
    private final int allowedEverywhere;
    /** The entries that name a host or range, in id order; a plain array, nearly always the shared empty one. */
    private final AclEntry[] hostBound;

    private PrincipalAcls(String principal, Array<AclEntry> entries, int deniedEverywhere, int allowedEverywhere,
                          AclEntry[] hostBound) {
        this.principal = principal;
        this.entries = entries;
        this.deniedEverywhere = deniedEverywhere;
        this.allowedEverywhere = allowedEverywhere;
        this.hostBound = hostBound;
    }

    /** The summary of {@code entries}, {@code principal}'s on one pattern in id order, not empty. */
    static PrincipalAcls of(String principal, Array<AclEntry> entries) {
        int denied = 0;
        int allowed = 0;
        Array<AclEntry> hostBound = Array.empty();
        for (AclEntry entry : entries) {
            if (!entry.host().equals(AclEntry.WILDCARD)) {
                hostBound = hostBound.append(entry);
                continue;
            }
            int covered = coveredOperations(entry);
            if (entry.permission() == PermissionType.DENY) {
                denied |= covered;
            } else {
                allowed |= covered;
            }
        }
        return new PrincipalAcls(principal, entries, denied, allowed,
                hostBound.isEmpty() ? NO_ENTRIES : hostBound.toJavaArray(AclEntry[]::new));
    }

    /** The operations {@code entry} covers as a request's, one bit per ordinal (16 operations fit an int). */
    private static int coveredOperations(AclEntry entry) {
        int covered = 0;
        for (AclOperation requested : OPERATIONS) {
            if (entry.covers(requested)) {
                covered |= bit(requested);
            }
        }
        return covered;
    }

    private static int bit(AclOperation operation) {
        return 1 << operation.ordinal();
    }

    /**
     * These ACLs' answers for every operation at once, as {@link PatternAcls#masks} packs them:
     * the operations an ACL for every host denies (bits 0-15, by ordinal) and allows (bits
     * 16-31), and {@link PatternAcls#HOST_BOUND} if some ACL names a host, whose answer depends
     * on the caller's address.
     */
    long masks() {
        return (deniedEverywhere & 0xFFFFL) | (allowedEverywhere & 0xFFFFL) << 16
                | (hostBound.length > 0 ? PatternAcls.HOST_BOUND : 0);
    }

    /** The principal ({@code TYPE:NAME}) these ACLs name; empty for NONE. */
    public String principal() {
        return principal;
    }

    /** The entries, in id order; empty for NONE. */
    public Array<AclEntry> entries() {
        return entries;
    }

    /**
     * What these ACLs say about {@code operation} from {@code host}: {@link #DENIES} if one that
     * applies is a DENY, {@link #ALLOWS} if one is an ALLOW, both, or 0 if none applies.
     */
    public int verdict(String host, AclOperation operation) {
        int bit = bit(operation);
        int verdict = ((deniedEverywhere & bit) != 0 ? DENIES : 0) | ((allowedEverywhere & bit) != 0 ? ALLOWS : 0);
        for (AclEntry entry : hostBound) {
            if (entry.coversHost(host) && entry.covers(operation)) {
                verdict |= entry.permission() == PermissionType.DENY ? DENIES : ALLOWS;
            }
        }
        return verdict;
    }
}
