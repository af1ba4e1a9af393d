package io.metaquorum.node.kafka;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.node.admin.AdminRequests;
import io.metaquorum.node.admin.CallOrigin;
import io.metaquorum.protocol.ConfigResourceType;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.protocol.Errors;

/**
 * Kafka's config resource types against ours. Ours are Kafka's numbers, but only TOPIC and
 * BROKER exist here; a Kafka type we have no configs for (BROKER_LOGGER, CLIENT_METRICS, GROUP,
 * UNKNOWN) never reaches the admin API. Kafka asks a right for those types before anything else
 * (BROKER_LOGGER and CLIENT_METRICS on the cluster, GROUP on the group), so a caller without it
 * gets Kafka's authorization error for that resource and learns nothing more; one with it is
 * answered INVALID_REQUEST, the code our gRPC API gives a type it does not know, with Kafka's
 * name for the type in the message rather than the protobuf's UNRECOGNIZED.
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

    /** Whether Kafka knows no config resource type {@code id}: Kafka refuses such a request as invalid. */
    static boolean unknownToKafka(byte id) {
        return ConfigResource.Type.forId(id) == ConfigResource.Type.UNKNOWN;
    }

    /**
     * What the resource {@code name} of Kafka's type {@code id}, one we serve no configs of,
     * answers a caller asking {@code operation} (DESCRIBE_CONFIGS or ALTER_CONFIGS) on it.
     */
    static Errors unsupportedAnswer(byte id, String name, AclOperation operation, AdminRequests admin,
                                    CallOrigin origin) {
        return switch (ConfigResource.Type.forId(id)) {
            case BROKER_LOGGER, CLIENT_METRICS -> admin.allows(origin, operation, ResourceType.CLUSTER,
                    Authorizer.CLUSTER_NAME) ? Errors.INVALID_REQUEST : Errors.CLUSTER_AUTHORIZATION_FAILED;
            case GROUP -> admin.allows(origin, operation, ResourceType.GROUP, name) ? Errors.INVALID_REQUEST
                    : Errors.GROUP_AUTHORIZATION_FAILED;
            default -> Errors.INVALID_REQUEST;
        };
    }

    /** The message of {@link #unsupportedAnswer}'s {@code answer} for Kafka's type {@code id}. */
    static String unsupportedMessage(byte id, Errors answer) {
        return answer == Errors.INVALID_REQUEST ? unsupported(id) : answer.message();
    }

    /** Why a resource of Kafka's type {@code id} is refused. */
    static String unsupported(byte id) {
        return "Unknown resource type " + ConfigResource.Type.forId(id) + " (" + id
                + "); only TOPIC and BROKER configs are served.";
    }
}
