package io.metaquorum.metadata.image;

/**
 * A pattern's place in the {@link AclIndex}: a resource type's code and a name, the name being
 * the first {@code length} characters of {@code source}. A stored key holds a whole name; a
 * lookup of a PREFIXED pattern names a resource name and the length of the prefix sought
 * ({@link PatternMap#get(int, String, int, int)}), so looking up the prefixes of
 * {@code orders-eu-1} copies no substring and hashes no character twice: the hash is
 * {@link String#hashCode} of the prefix, which the caller computes as it walks the name
 * ({@link #hashStep}). Two keys are equal when their types and names are, however
 * they were made; the hash depends on the type's code and the name only, never on identity.
 */
final class PatternKey {
    private final int typeCode;
    private final String source;
    private final int length;
    private final int hash;

    private PatternKey(int typeCode, String source, int length, int nameHash) {
        this.typeCode = typeCode;
        this.source = source;
        this.length = length;
        this.hash = hash(typeCode, nameHash);
    }

    /** The hash of the key for {@code typeCode} and a name whose {@link String#hashCode} is {@code nameHash}. */
    static int hash(int typeCode, int nameHash) {
        return 31 * typeCode + nameHash;
    }

    /** The key of the whole {@code name}. */
    static PatternKey of(int typeCode, String name) {
        return new PatternKey(typeCode, name, name.length(), name.hashCode());
    }

    /** The hash of a string one character longer than one hashing to {@code hash}: {@link String#hashCode}'s step. */
    static int hashStep(int hash, char next) {
        return 31 * hash + next;
    }

    int typeCode() {
        return typeCode;
    }

    int nameLength() {
        return length;
    }

    /** The string whose first {@link #nameLength} characters are the name. */
    String source() {
        return source;
    }

    /** Whether this is the key of type {@code typeCode} and the first {@code length} characters of {@code name}. */
    boolean names(int typeCode, String name, int length) {
        return this.typeCode == typeCode && this.length == length && sameName(source, name, length);
    }

    /**
     * Whether the whole of {@code stored} is the first {@code length} characters of
     * {@code name}, {@code stored} being {@code length} long.
     */
    static boolean sameName(String stored, String name, int length) {
        // Whole names compare with String.equals, which the JIT makes a vector compare.
        return length == name.length() ? stored.equals(name) : stored.regionMatches(0, name, 0, length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PatternKey other && hash == other.hash && names(other.typeCode, other.source, other.length);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return typeCode + ":" + source.substring(0, length);
    }
}
