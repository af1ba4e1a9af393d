package io.metaquorum.metadata.image;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A persistent hash map of {@link PatternAcls} by their keys ({@link PatternKey}: type and
 * name): a hash array mapped trie (64 ways a level, by six bits of the key's hash, lowest
 * first) with one node class, so that a lookup is a loop over arrays rather than a chain of
 * virtual calls, and a lookup by type, name and prefix length
 * ({@link #get(int, String, int, int)}) builds no key. A decision makes a handful of lookups in
 * the index's two maps, and they were most of its cost in the general-purpose map this
 * replaces (vavr's {@code HashMap}, 32 ways). The decisions of a Metadata request touch
 * thousands of patterns, so each cold cache line on a lookup's path counts: 64 ways keep a few
 * thousand patterns two levels deep, with the slots holding the patterns themselves.
 *
 * <p>Persistent: {@link #put} and {@link #remove} copy the path to the key (O(log n)) and share
 * the rest, so replay keeps the index at O(log n) a record. Keys of the same hash share a slot
 * (a {@link Collision}); a node is split only where hashes differ, so the trie is at most six
 * levels deep. The map's answers depend on its patterns only, never on their order of
 * insertion, and its one listing ({@link #sortedOfType}) is sorted by name, so no hash order
 * can reach an output.
 */
final class PatternMap {
    static final PatternMap EMPTY = new PatternMap(Node.EMPTY, 0);

    private static final int BITS = 6;
    private static final int MASK = (1 << BITS) - 1;

    private final Node root;
    private final int size;

    private PatternMap(Node root, int size) {
        this.root = root;
        this.size = size;
    }

    /**
     * A trie node: a bitmap of the hash fragments present, and one slot per bit: a {@link Node},
     * a {@link PatternAcls} (which carries its key, so a lookup reads no key object) or a
     * {@link Collision}.
     */
    private record Node(long bitmap, Object[] slots) {
        static final Node EMPTY = new Node(0, new Object[0]);

        int index(long bit) {
            return Long.bitCount(bitmap & (bit - 1));
        }

        Node withSlot(long bit, Object slot) {
            int at = index(bit);
            if ((bitmap & bit) != 0) {
                Object[] next = slots.clone();
                next[at] = slot;
                return new Node(bitmap, next);
            }
            Object[] next = new Object[slots.length + 1];
            System.arraycopy(slots, 0, next, 0, at);
            next[at] = slot;
            System.arraycopy(slots, at, next, at + 1, slots.length - at);
            return new Node(bitmap | bit, next);
        }

        /** Without the slot of {@code bit}, which is present; null if it was the last. */
        Node withoutSlot(long bit) {
            if (slots.length == 1) {
                return null;
            }
            int at = index(bit);
            Object[] next = new Object[slots.length - 1];
            System.arraycopy(slots, 0, next, 0, at);
            System.arraycopy(slots, at + 1, next, at, slots.length - at - 1);
            return new Node(bitmap & ~bit, next);
        }
    }

    /** Patterns whose keys share one hash (rare: nearly every slot holds a single {@link PatternAcls}). */
    private record Collision(int hash, PatternAcls[] patterns) {
        PatternAcls find(int typeCode, String name, int length) {
            for (PatternAcls pattern : patterns) {
                if (pattern.names(typeCode, name, length)) {
                    return pattern;
                }
            }
            return null;
        }

        /** The slot holding these patterns and {@code pattern}, replacing the one of the same key if any. */
        Object with(PatternAcls pattern) {
            PatternAcls[] next = without(pattern.typeCode(), pattern.name());
            next = Arrays.copyOf(next, next.length + 1);
            next[next.length - 1] = pattern;
            return new Collision(hash, next);
        }

        /** The slot left without the key's pattern: null, the one pattern left, or a smaller collision. */
        Object left(int typeCode, String name) {
            PatternAcls[] next = without(typeCode, name);
            return next.length == 0 ? null : next.length == 1 ? next[0] : new Collision(hash, next);
        }

        private PatternAcls[] without(int typeCode, String name) {
            return Arrays.stream(patterns).filter(p -> !p.names(typeCode, name, name.length()))
                    .toArray(PatternAcls[]::new);
        }
    }

    private static int hashOf(Object slot) {
        return slot instanceof PatternAcls pattern ? pattern.keyHash() : ((Collision) slot).hash();
    }

    int size() {
        return size;
    }

    /** The pattern of {@code key}, or null. */
    PatternAcls get(PatternKey key) {
        return get(key.typeCode(), key.source(), key.nameLength(), key.hashCode());
    }

    /**
     * The pattern of type {@code typeCode} named by the first {@code length} characters of
     * {@code name}, whose key's {@link PatternKey#hashCode} is {@code keyHash}; null if absent.
     */
    PatternAcls get(int typeCode, String name, int length, int keyHash) {
        Node node = root;
        for (int shift = 0; ; shift += BITS) {
            long bit = 1L << (keyHash >>> shift & MASK);
            if ((node.bitmap & bit) == 0) {
                return null;
            }
            Object slot = node.slots[node.index(bit)];
            if (slot instanceof Node child) {
                node = child;
            } else if (slot instanceof PatternAcls pattern) {
                return pattern.keyHash() == keyHash && pattern.names(typeCode, name, length) ? pattern : null;
            } else {
                Collision collision = (Collision) slot;
                return collision.hash() == keyHash ? collision.find(typeCode, name, length) : null;
            }
        }
    }

    /** The patterns of type {@code typeCode}, sorted by name ({@link String#compareTo}). */
    PatternAcls[] sortedOfType(int typeCode) {
        List<PatternAcls> found = new ArrayList<>();
        collect(root, typeCode, found);
        found.sort(Comparator.comparing(PatternAcls::name));
        return found.toArray(PatternAcls[]::new);
    }

    private static void collect(Node node, int typeCode, List<PatternAcls> found) {
        for (Object slot : node.slots) {
            if (slot instanceof Node child) {
                collect(child, typeCode, found);
            } else if (slot instanceof PatternAcls pattern) {
                if (pattern.typeCode() == typeCode) {
                    found.add(pattern);
                }
            } else {
                for (PatternAcls pattern : ((Collision) slot).patterns()) {
                    if (pattern.typeCode() == typeCode) {
                        found.add(pattern);
                    }
                }
            }
        }
    }

    /** The map with {@code pattern} under its key, in place of the pattern there if any. */
    PatternMap put(PatternAcls pattern) {
        int added = get(pattern.typeCode(), pattern.name(), pattern.name().length(), pattern.keyHash()) == null ? 1 : 0;
        return new PatternMap(put(root, 0, pattern), size + added);
    }

    private static Node put(Node node, int shift, PatternAcls pattern) {
        int hash = pattern.keyHash();
        long bit = 1L << (hash >>> shift & MASK);
        if ((node.bitmap & bit) == 0) {
            return node.withSlot(bit, pattern);
        }
        Object slot = node.slots[node.index(bit)];
        if (slot instanceof Node child) {
            return node.withSlot(bit, put(child, shift + BITS, pattern));
        }
        if (hashOf(slot) != hash) {
            return node.withSlot(bit, split(slot, pattern, shift + BITS));
        }
        if (slot instanceof PatternAcls same && same.names(pattern.typeCode(), pattern.name(), pattern.name().length())) {
            return node.withSlot(bit, pattern);
        }
        Collision collision = slot instanceof Collision c ? c : new Collision(hash, new PatternAcls[] {(PatternAcls) slot});
        return node.withSlot(bit, collision.with(pattern));
    }

    /** A node holding two slots of different hashes, at the first level where their fragments differ. */
    private static Node split(Object a, Object b, int shift) {
        int fragmentA = hashOf(a) >>> shift & MASK;
        int fragmentB = hashOf(b) >>> shift & MASK;
        if (fragmentA == fragmentB) {
            return new Node(1L << fragmentA, new Object[] {split(a, b, shift + BITS)});
        }
        // Slots go in fragment order (compared as fragments: the bit of fragment 63 is negative).
        long bitmap = 1L << fragmentA | 1L << fragmentB;
        return fragmentA < fragmentB ? new Node(bitmap, new Object[] {a, b}) : new Node(bitmap, new Object[] {b, a});
    }

    /** The map without the pattern of {@code typeCode} and {@code name}; this map if it has none. */
    PatternMap remove(int typeCode, String name) {
        int hash = PatternKey.hash(typeCode, name.hashCode());
        if (get(typeCode, name, name.length(), hash) == null) {
            return this;
        }
        Node next = remove(root, 0, typeCode, name, hash);
        return new PatternMap(next == null ? Node.EMPTY : next, size - 1);
    }

    /** Without the key, which is present; null if the node is left empty. */
    private static Node remove(Node node, int shift, int typeCode, String name, int hash) {
        long bit = 1L << (hash >>> shift & MASK);
        Object slot = node.slots[node.index(bit)];
        Object left;
        if (slot instanceof Node child) {
            Node rest = remove(child, shift + BITS, typeCode, name, hash);
            // A child left with one pattern (or collision) is replaced by it: the shape is the keys' alone.
            left = rest != null && rest.slots.length == 1 && !(rest.slots[0] instanceof Node) ? rest.slots[0] : rest;
        } else {
            left = slot instanceof Collision collision ? collision.left(typeCode, name) : null;
        }
        return left == null ? node.withoutSlot(bit) : node.withSlot(bit, left);
    }

    @Override
    public String toString() {
        return "PatternMap[size=" + size + "]";
    }
}
