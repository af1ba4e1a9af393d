package io.metaquorum.metadata.authorizer;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;

/**
 * One question to the authorizer: may {@code principal} ({@code TYPE:NAME}, a type without
 * {@code :}) connected from {@code host} (the client address as
 * {@code InetAddress.getHostAddress} prints it, compared as an exact string) do
 * {@code operation} on the resource {@code resourceType}/{@code resourceName}? The cluster is
 * the CLUSTER resource {@value Authorizer#CLUSTER_NAME}.
 */
public record AuthorizationRequest(String principal, String host, AclOperation operation,
                                   ResourceType resourceType, String resourceName) {
    /** {@code User:bob WRITE TOPIC orders from 127.0.0.1}. */
    public String text() {
        return principal + " " + operation + " " + resourceType + " " + resourceName + " from " + host;
    }
}
