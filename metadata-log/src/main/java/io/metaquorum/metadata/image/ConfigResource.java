package io.metaquorum.metadata.image;

import io.metaquorum.protocol.ConfigResourceType;
import java.util.Comparator;

/** What a config belongs to: a topic by name or a broker by id (empty name: cluster default). */
public record ConfigResource(ConfigResourceType type, String name) {
    public static final Comparator<ConfigResource> ORDER =
            Comparator.comparingInt((ConfigResource r) -> r.type().getNumber()).thenComparing(ConfigResource::name);

    public static ConfigResource topic(String name) {
        return new ConfigResource(ConfigResourceType.CONFIG_RESOURCE_TOPIC, name);
    }
}
