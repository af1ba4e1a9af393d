package io.metaquorum.node.access;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.authorizer.AscendingDecisions;
import io.metaquorum.metadata.authorizer.Authorizer;
import io.metaquorum.metadata.image.MetadataImage;
import io.metaquorum.security.Caller;

/**
 * One request's questions to its node's authorizer: the caller, and the image the answer is
 * read from (a read's committed image, or the controller's for a write), so every entry of a
 * batch is decided on the same ACLs its answer is built from.
 */
public record RequestAccess(NodeAccess access, MetadataImage image, Caller caller) {
    /** Everything on {@code image} allowed: a node without an authorizer. */
    public static RequestAccess unchecked(MetadataImage image) {
        return new RequestAccess(NodeAccess.DISABLED, image, Caller.ANONYMOUS);
    }

    /** Whether the caller may do {@code operation} on the topic; a denial is audited. */
    public boolean allowsTopic(AclOperation operation, String topic) {
        return access.allows(image, caller, operation, ResourceType.TOPIC, topic, true);
    }

    /**
     * Which topics a listing shows (DESCRIBE), asked in ascending name order as the image's
     * name index yields them: one the caller may not see is left out silently, and not audited
     * (a listing would flood the audit log). One listing's; not shared between threads.
     */
    public AscendingDecisions topicListing() {
        return access.ascending(image, caller, AclOperation.DESCRIBE, ResourceType.TOPIC);
    }

    /** As {@link #allowsTopic}, not audited: a right that only shapes an answer (Kafka logs it at DEBUG). */
    public boolean holdsOnTopic(AclOperation operation, String topic) {
        return access.allows(image, caller, operation, ResourceType.TOPIC, topic, false);
    }

    /** Whether the caller may do {@code operation} on the cluster; a denial is audited. */
    public boolean allowsOnCluster(AclOperation operation) {
        return access.allowsOnCluster(image, caller, operation);
    }

    /**
     * Whether the caller may do {@code operation} on the cluster, not audited: a cluster-wide
     * right asked first, before the per-resource ones that may still allow the entry.
     */
    public boolean holdsOnCluster(AclOperation operation) {
        return access.allows(image, caller, operation, ResourceType.CLUSTER,
                Authorizer.CLUSTER_NAME, false);
    }
}
