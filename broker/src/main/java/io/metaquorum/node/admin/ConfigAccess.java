package io.metaquorum.node.admin;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.node.access.RequestAccess;
import io.metaquorum.protocol.ConfigResourceType;
import io.metaquorum.protocol.ErrorCode;

/**
 * Config rights as Kafka checks them: a topic's configs on the TOPIC, a broker's on the
 * CLUSTER (DESCRIBE_CONFIGS to read, ALTER_CONFIGS to change; neither DESCRIBE nor ALTER is
 * enough). A resource of an unknown type is left to the request's own validation.
 */
final class ConfigAccess {
    private ConfigAccess() {
    }

    static boolean allows(RequestAccess access, AclOperation operation, ConfigResourceType type, String name) {
        return switch (type) {
            case CONFIG_RESOURCE_TOPIC -> access.allowsTopic(operation, name);
            case CONFIG_RESOURCE_BROKER -> access.allowsOnCluster(operation);
            default -> true;
        };
    }

    static ErrorCode deniedCode(ConfigResourceType type) {
        return type == ConfigResourceType.CONFIG_RESOURCE_BROKER ? ErrorCode.CLUSTER_AUTHORIZATION_FAILED
                : ErrorCode.TOPIC_AUTHORIZATION_FAILED;
    }

    static String deniedMessage(ConfigResourceType type) {
        return type == ConfigResourceType.CONFIG_RESOURCE_BROKER ? AuthorizedWrites.CLUSTER_DENIED
                : AuthorizedWrites.TOPIC_DENIED;
    }
}
