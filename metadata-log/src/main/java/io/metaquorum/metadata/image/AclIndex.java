package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.ResourceType;
import io.vavr.collection.HashMap;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The image's ACLs by resource pattern, so that finding the ACLs that can apply to one
 * resource costs a few hash lookups instead of a pass over all n ACLs (the cost KAFKA-20667
 * reports: 7,000 ACLs times 500 topics per Metadata request).
 *
 * <p>LITERAL patterns, the {@code *} wildcard among them, are in a hash map by (resource
 * type, name): a resource needs two lookups, its own name and {@code *}. PREFIXED patterns are
 * in another, and the index keeps, per resource type, the distinct lengths their names have:
 * the prefixes of {@code orders-eu-1} that have ACLs are found by looking up its prefix of
 * each such length ({@link #forEachPrefixOf}), never by reading unrelated prefixes. A name
 * costs at most one lookup per character and in practice one per length in use; the lookups
 * hash the name once as they walk it and copy nothing ({@link PatternMap}, a hash trie made
 * for these lookups). Within a pattern, {@link PatternAcls} splits the ACLs by principal.
 *
 * <p>Why it lives in the image and is kept up by replay rather than built on demand: an
 * image is read by every request on the node, ACL changes are rare, and each replayed record
 * costs O(log n) on persistent maps (plus a copy of one small length array when a length
 * appears or goes), so a new image shares all but a path of the old index. Building it once
 * per image would cost O(n) on every ACL record and need a cache beside an immutable value.
 * The index is a function of the entries: every node that replayed the same records holds the
 * same index, and no decision depends on hash order (hash maps are only looked up; the keys
 * hash the type's code and the name, never an identity hash).
 */
public final class AclIndex {
    static final AclIndex EMPTY = new AclIndex(PatternMap.EMPTY, PatternMap.EMPTY, HashMap.empty(),
            new int[ResourceType.values().length][]);

    /** The LITERAL {@code *} of each resource type, by type code: asked for by nearly every decision. */
    private static final PatternKey[] WILDCARD_KEYS = wildcardKeys();
    /** The bit of {@link #verdict} set when some pattern matches the resource. */
    public static final int MATCHED = 4;

    private final PatternMap literal;
    private final PatternMap prefixed;
    /** How many PREFIXED patterns of each (type code, name length) there are. */
    private final HashMap<PatternKey, Integer> prefixLengthCounts;
    /**
     * By type code, the distinct lengths of the PREFIXED names, ascending (null: none). Never
     * written after construction; a change copies the one array it touches.
     * Invariant: the lengths are those of {@code prefixLengthCounts} for the type.
     */
    private final int[][] prefixLengths;
    /** The sorted views {@link #ascending} walks, filled on first use (a cache, not state: see its class). */
    private final AscendingViews views = new AscendingViews();

    private AclIndex(PatternMap literal, PatternMap prefixed,
                     HashMap<PatternKey, Integer> prefixLengthCounts, int[][] prefixLengths) {
        this.literal = literal;
        this.prefixed = prefixed;
        this.prefixLengthCounts = prefixLengthCounts;
        this.prefixLengths = prefixLengths;
    }

    /**
     * Hands {@code visitor} every pattern of {@code type} that matches {@code name}: the
     * LITERAL {@code name}, the LITERAL {@code *} (unless {@code name} starts with {@code *},
     * as in Kafka), and each PREFIXED prefix of {@code name}.
     * The order is not part of the contract.
     */
    public void forEachPatternMatching(ResourceType type, String name, Consumer<PatternAcls> visitor) {
        int typeCode = type.code();
        PatternAcls exact = literal.get(typeCode, name, name.length(), PatternKey.hash(typeCode, name.hashCode()));
        if (exact != null) {
            visitor.accept(exact);
        }
        // Kafka's scan skips the LITERAL * for a name that starts with * (it takes it for a
        // literal prefix of the name): such a name, a group "*a" say, gets no wildcard ACLs.
        // Reproduced so that every decision is Kafka's.
        if (!name.startsWith(AclEntry.WILDCARD)) {
            PatternAcls wildcard = literal.get(WILDCARD_KEYS[type.ordinal()]);
            if (wildcard != null) {
                visitor.accept(wildcard);
            }
        }
        forEachPrefixOf(typeCode, name, visitor);
    }

    /**
     * What the patterns matching {@code name} ({@link #forEachPatternMatching}) say about
     * {@code operation} by {@code principal} from {@code host}: the OR of their
     * {@link PatternAcls#verdict} bits, with {@link #MATCHED} set if any pattern matches. The
     * same walk as {@link #forEachPatternMatching}, with nothing allocated per call.
     */
    public int verdict(ResourceType type, String name, String principal, String host, AclOperation operation) {
        int typeCode = type.code();
        int verdict = 0;
        PatternAcls exact = literal.get(typeCode, name, name.length(), PatternKey.hash(typeCode, name.hashCode()));
        if (exact != null) {
            verdict |= MATCHED | exact.verdict(principal, host, operation);
        }
        if (!name.startsWith(AclEntry.WILDCARD)) {
            PatternAcls wildcard = literal.get(WILDCARD_KEYS[type.ordinal()]);
            if (wildcard != null) {
                verdict |= MATCHED | wildcard.verdict(principal, host, operation);
            }
        }
        int[] lengths = typeCode < prefixLengths.length ? prefixLengths[typeCode] : null;
        if (lengths == null) {
            return verdict;
        }
        int hash = 0;
        int hashed = 0;
        for (int length : lengths) {
            if (length > name.length()) {
                return verdict;
            }
            for (; hashed < length; hashed++) {
                hash = PatternKey.hashStep(hash, name.charAt(hashed));
            }
            PatternAcls at = prefixed.get(typeCode, name, length, PatternKey.hash(typeCode, hash));
            if (at != null) {
                verdict |= MATCHED | at.verdict(principal, host, operation);
            }
        }
        return verdict;
    }

    /**
     * {@link #verdict} for {@code principal}, {@code host}, {@code operation} and {@code type},
     * for names asked in ascending order (a listing walking the image's name index): a merge of
     * the names with the type's sorted patterns, which reads memory in order where a lookup per
     * name reads a few cold lines of the hash maps. The first walk of a principal on this index
     * sorts and summarizes the type's patterns (O(n log n)); later ones reuse that.
     */
    public AscendingVerdicts ascending(ResourceType type, String principal, String host, AclOperation operation) {
        AscendingViews.Compiled compiled = views.compiled(type, principal, literal, prefixed);
        int[] lengths = type.code() < prefixLengths.length ? prefixLengths[type.code()] : null;
        return new AscendingVerdicts(compiled, literal.get(WILDCARD_KEYS[type.ordinal()]),
                lengths == null ? 0 : lengths.length, principal, host, operation);
    }

    /**
     * One lookup per distinct length of the type's PREFIXED names, up to the name's length:
     * the prefix of {@code name} of that length, if it has ACLs. A name of length m costs at
     * most m lookups whatever the number of ACLs, and usually a handful (the lengths in use).
     * The prefixes' hashes are those of one walk along the name, and the probes copy no
     * characters: a decision hashes each character of the name once at most.
     */
    private void forEachPrefixOf(int typeCode, String name, Consumer<PatternAcls> visitor) {
        int[] lengths = typeCode < prefixLengths.length ? prefixLengths[typeCode] : null;
        if (lengths == null) {
            return;
        }
        int hash = 0;
        int hashed = 0;
        for (int length : lengths) {
            if (length > name.length()) {
                return;
            }
            for (; hashed < length; hashed++) {
                hash = PatternKey.hashStep(hash, name.charAt(hashed));
            }
            PatternAcls at = prefixed.get(typeCode, name, length, PatternKey.hash(typeCode, hash));
            if (at != null) {
                visitor.accept(at);
            }
        }
    }

    /** Whether an entry with {@code entry}'s pattern, principal, host, operation and permission is here (any id). */
    boolean holdsSame(AclEntry entry) {
        PatternKey key = PatternKey.of(entry.resourceType().code(), entry.resourceName());
        PatternAcls at = (entry.patternType() == PatternType.PREFIXED ? prefixed : literal).get(key);
        if (at == null) {
            return false;
        }
        for (AclEntry other : at.entriesOf(entry.principal())) {
            if (other.host().equals(entry.host()) && other.operation() == entry.operation()
                    && other.permission() == entry.permission()) {
                return true;
            }
        }
        return false;
    }

    AclIndex with(AclEntry entry) {
        PatternKey key = PatternKey.of(entry.resourceType().code(), entry.resourceName());
        if (entry.patternType() == PatternType.PREFIXED) {
            PatternAcls at = prefixed.get(key);
            PatternMap next = prefixed.put(at == null ? PatternAcls.of(entry) : at.with(entry));
            return at == null ? withPrefixLength(next, key, 1) : new AclIndex(literal, next, prefixLengthCounts,
                    prefixLengths);
        }
        PatternAcls at = literal.get(key);
        return new AclIndex(literal.put(at == null ? PatternAcls.of(entry) : at.with(entry)), prefixed,
                prefixLengthCounts, prefixLengths);
    }

    AclIndex without(AclEntry entry) {
        PatternKey key = PatternKey.of(entry.resourceType().code(), entry.resourceName());
        if (entry.patternType() == PatternType.PREFIXED) {
            PatternAcls left = prefixed.get(key).without(entry);
            return left == null ? withPrefixLength(prefixed.remove(key.typeCode(), entry.resourceName()), key, -1)
                    : new AclIndex(literal, prefixed.put(left), prefixLengthCounts, prefixLengths);
        }
        PatternAcls left = literal.get(key).without(entry);
        PatternMap nextLiteral = left == null ? literal.remove(key.typeCode(), entry.resourceName()) : literal.put(left);
        return new AclIndex(nextLiteral, prefixed, prefixLengthCounts, prefixLengths);
    }

    /** The index with {@code nextPrefixed}, a PREFIXED pattern of {@code pattern}'s length added (+1) or gone (-1). */
    private AclIndex withPrefixLength(PatternMap nextPrefixed, PatternKey pattern, int change) {
        int nameLength = pattern.nameLength();
        PatternKey length = PatternKey.of(pattern.typeCode(), Integer.toString(nameLength));
        int count = prefixLengthCounts.getOrElse(length, 0) + change;
        HashMap<PatternKey, Integer> counts = count == 0 ? prefixLengthCounts.remove(length)
                : prefixLengthCounts.put(length, count);
        int[][] lengths = prefixLengths;
        if (count == 0 || count == 1 && change > 0) {
            lengths = prefixLengths.clone();
            lengths[pattern.typeCode()] = lengthsOf(pattern.typeCode(), nameLength, change > 0);
        }
        return new AclIndex(literal, nextPrefixed, counts, lengths);
    }

    private int[] lengthsOf(int typeCode, int changed, boolean added) {
        int[] old = prefixLengths[typeCode] == null ? new int[0] : prefixLengths[typeCode];
        int[] next = added ? Arrays.copyOf(old, old.length + 1) : new int[old.length - 1];
        if (added) {
            next[old.length] = changed;
        } else {
            int i = 0;
            for (int length : old) {
                if (length != changed) {
                    next[i++] = length;
                }
            }
        }
        Arrays.sort(next);
        return next.length == 0 ? null : next;
    }

    private static PatternKey[] wildcardKeys() {
        ResourceType[] types = ResourceType.values();
        PatternKey[] keys = new PatternKey[types.length];
        for (ResourceType type : types) {
            keys[type.ordinal()] = PatternKey.of(type.code(), AclEntry.WILDCARD);
        }
        return keys;
    }

    /** How many patterns the index holds (LITERAL and PREFIXED), for tests. */
    int patternCount() {
        return literal.size() + prefixed.size();
    }
}
