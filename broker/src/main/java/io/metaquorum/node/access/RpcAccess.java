package io.metaquorum.node.access;

import io.metaquorum.metadata.acl.AclOperation;

/**
 * What one RPC needs of its caller: {@code operation} on {@code resource}, and in words how
 * the check is applied and what a denial answers.
 *
 * @param service the gRPC service, e.g. {@code AdminService}
 * @param rpc     the method, e.g. {@code CreateTopics}
 */
public record RpcAccess(String service, String rpc, AclOperation operation, Resource resource, String detail) {
    /** What the operation is asked on. */
    public enum Resource {
        /** The one CLUSTER resource; a denial fails the whole request with CLUSTER_AUTHORIZATION_FAILED. */
        CLUSTER,
        /** Each TOPIC the request names; a denial answers TOPIC_AUTHORIZATION_FAILED for that topic. */
        TOPIC,
        /** The CLUSTER for the whole request, else each TOPIC. */
        CLUSTER_OR_TOPIC,
        /** Each config resource: a topic's on the TOPIC, a broker's on the CLUSTER. */
        CONFIG_RESOURCE
    }

    /** The gRPC full method name, e.g. {@code metaquorum.protocol.AdminService/CreateTopics}. */
    public String fullMethodName() {
        return RpcAccessTable.PROTO_PACKAGE + "." + service + "/" + rpc;
    }

    /** {@code CREATE on CLUSTER}, as the README's table prints it. */
    public String need() {
        return operation + " on " + switch (resource) {
            case CLUSTER -> "CLUSTER";
            case TOPIC -> "TOPIC";
            case CLUSTER_OR_TOPIC -> "CLUSTER, else on each TOPIC";
            case CONFIG_RESOURCE -> "the TOPIC (a broker's configs: CLUSTER)";
        };
    }
}
