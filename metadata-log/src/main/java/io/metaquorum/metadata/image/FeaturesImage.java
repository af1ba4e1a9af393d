package io.metaquorum.metadata.image;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Finalized feature levels by name (Kafka's {@code FeaturesImage}), sorted by name so that
 * iteration, printing and snapshots are deterministic. A level of 0 removes a feature.
 *
 * <p>Invariant: every stored level is &gt; 0; the map is unmodifiable.
 */
public record FeaturesImage(Map<String, Integer> levels) {
    public static final FeaturesImage EMPTY = new FeaturesImage(new TreeMap<>());

    public FeaturesImage {
        levels = Collections.unmodifiableMap(new TreeMap<>(levels));
    }

    public Optional<Integer> level(String name) {
        return Optional.ofNullable(levels.get(name));
    }

    public FeaturesImage withLevel(String name, int level) {
        TreeMap<String, Integer> next = new TreeMap<>(levels);
        if (level == 0) {
            next.remove(name);
        } else {
            next.put(name, level);
        }
        return new FeaturesImage(next);
    }
}
