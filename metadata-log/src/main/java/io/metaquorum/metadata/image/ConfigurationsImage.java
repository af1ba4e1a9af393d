package io.metaquorum.metadata.image;

import io.vavr.collection.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Non-default configs by resource, then by key (Kafka's {@code ConfigurationsImage}).
 *
 * <p>Invariant: no resource maps to an empty config set (removing the last key removes the
 * resource), so two images with the same configs are equal however they got there.
 */
public record ConfigurationsImage(HashMap<ConfigResource, HashMap<String, String>> resources) {
    public static final ConfigurationsImage EMPTY = new ConfigurationsImage(HashMap.empty());

    /** The configs set on {@code resource}, sorted by key; empty when none. */
    public Map<String, String> configs(ConfigResource resource) {
        TreeMap<String, String> sorted = new TreeMap<>();
        resources.get(resource).forEach(keys -> keys.forEach(sorted::put));
        return sorted;
    }

    /** The resources that have configs, sorted by type then name. */
    public List<ConfigResource> sortedResources() {
        List<ConfigResource> sorted = new ArrayList<>(resources.size());
        resources.keySet().forEach(sorted::add);
        sorted.sort(ConfigResource.ORDER);
        return sorted;
    }

    ConfigurationsImage withConfig(ConfigResource resource, String key, String value) {
        HashMap<String, String> keys = resources.get(resource).getOrElse(HashMap.empty());
        HashMap<String, String> next = value == null ? keys.remove(key) : keys.put(key, value);
        return new ConfigurationsImage(next.isEmpty() ? resources.remove(resource) : resources.put(resource, next));
    }

    ConfigurationsImage withoutResource(ConfigResource resource) {
        return new ConfigurationsImage(resources.remove(resource));
    }
}
