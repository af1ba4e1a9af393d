package io.metaquorum.node.admin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The answer to a batch whose entries the caller was partly authorized for: the controller
 * decided the allowed entries, the others are answered with an authorization error, and the
 * client reads one result per entry in the order it asked.
 */
final class BatchMerge {
    private BatchMerge() {
    }

    /**
     * The results in request order: for entry {@code i}, {@code deniedResult} when
     * {@code denied} holds {@code i}, else the controller's result with the entry's key
     * (controller results are taken once each, first come first served; an entry the controller
     * answered only once, a repeated name, appears once). With {@code distinct}, a key answered
     * already is not answered again (CreateTopics answers each name once).
     *
     * @param <E> a request entry
     * @param <T> a result
     * @param <K> what ties a result to its entry (a topic name, a resource)
     */
    static <E, T, K> List<T> merge(List<E> entries, BitSet denied, Function<E, K> entryKey,
                                   List<T> decided, Function<T, K> resultKey, Function<E, T> deniedResult,
                                   boolean distinct) {
        Map<K, ArrayDeque<T>> byKey = new LinkedHashMap<>();
        for (T result : decided) {
            byKey.computeIfAbsent(resultKey.apply(result), k -> new ArrayDeque<>()).add(result);
        }
        List<T> out = new ArrayList<>(entries.size());
        Set<K> answered = new LinkedHashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            E entry = entries.get(i);
            K key = entryKey.apply(entry);
            if (distinct && !answered.add(key)) {
                continue;
            }
            if (denied.get(i)) {
                out.add(deniedResult.apply(entry));
            } else {
                ArrayDeque<T> results = byKey.get(key);
                T result = results == null ? null : results.poll();
                if (result != null) {
                    out.add(result);
                }
            }
        }
        // Nothing the controller answered may be lost, even if it named an entry differently.
        byKey.values().forEach(out::addAll);
        return out;
    }

    /** The entries not in {@code denied}. */
    static <E> List<E> allowed(List<E> entries, BitSet denied) {
        List<E> out = new ArrayList<>(entries.size() - denied.cardinality());
        for (int i = 0; i < entries.size(); i++) {
            if (!denied.get(i)) {
                out.add(entries.get(i));
            }
        }
        return out;
    }
}
