package io.metaquorum.metadata.acl;

/**
 * The resources an ACL applies to (Kafka's {@code ResourcePattern}): a resource type, a name,
 * and how the name matches. In an ACL the types are concrete ({@link AclRules} refuses
 * UNKNOWN, ANY and MATCH); {@link #toString} is Kafka's, which {@code mq-acls} prints.
 */
public record ResourcePattern(ResourceType resourceType, String name, PatternType patternType) {
    /** The one name a CLUSTER resource has (Kafka's {@code Resource.CLUSTER_NAME}). */
    public static final String CLUSTER_NAME = "kafka-cluster";
    /** A LITERAL name that stands for every resource of its type. */
    public static final String WILDCARD = "*";

    @Override
    public String toString() {
        return "ResourcePattern(resourceType=" + resourceType + ", name=" + name + ", patternType=" + patternType + ")";
    }
}
