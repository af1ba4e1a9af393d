package io.metaquorum.node.kafka;

import io.metaquorum.protocol.ConfigResourceType;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Kafka's config resource types against ours. Ours are Kafka's numbers, but only TOPIC and
 * BROKER exist here; a Kafka type we have no configs for (BROKER_LOGGER, CLIENT_METRICS, GROUP,
 * UNKNOWN) never reaches the admin API: it is answered INVALID_REQUEST for that resource alone,
 * the code our gRPC API gives a type it does not know, with Kafka's name for the type in the
 * message rather than the protobuf's UNRECOGNIZED.
 */
final class ConfigResourceTypes {
    private ConfigResourceTypes() {
    }

    /** Our type for Kafka's {@code id}, if we serve configs of it. */
    static Optional<ConfigResourceType> ours(byte id) {
        ConfigResourceType type = ConfigResourceType.forNumber(id);
        return type == null || type == ConfigResourceType.CONFIG_RESOURCE_UNKNOWN ? Optional.empty()
                : Optional.of(type);
    }

    /** Why a resource of Kafka's type {@code id} is refused. */
    static String unsupported(byte id) {
        return "Unknown resource type " + ConfigResource.Type.forId(id) + " (" + id
                + "); only TOPIC and BROKER configs are served.";
    }
}
