package io.metaquorum.metadata.acl;

import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.Uuid;
import java.util.Comparator;

/**
 * One ACL (Kafka's {@code AclBinding}): a resource pattern and an entry. Two bindings with
 * equal fields are the same ACL; the log holds each at most once, under an id.
 */
public record AclBinding(ResourcePattern pattern, AccessControlEntry entry) {
    /**
     * The order ACLs are listed in: by resource type, name and pattern type, then principal,
     * host, operation and permission. A function of the fields only, so every node lists alike.
     */
    public static final Comparator<AclBinding> LISTING_ORDER = Comparator
            .comparingInt((AclBinding b) -> b.pattern().resourceType().code())
            .thenComparing(b -> b.pattern().name())
            .thenComparingInt(b -> b.pattern().patternType().code())
            .thenComparing(b -> b.entry().principal())
            .thenComparing(b -> b.entry().host())
            .thenComparingInt(b -> b.entry().operation().code())
            .thenComparingInt(b -> b.entry().permissionType().code());

    /** The ACL a record holds; a code Kafka does not define reads as UNKNOWN. */
    public static AclBinding fromRecord(AccessControlEntryRecord record) {
        return new AclBinding(
                new ResourcePattern(ResourceType.fromCode(record.getResourceType()).orElse(ResourceType.UNKNOWN),
                        record.getResourceName(),
                        PatternType.fromCode(record.getPatternType()).orElse(PatternType.UNKNOWN)),
                new AccessControlEntry(record.getPrincipal(), record.getHost(),
                        AclOperation.fromCode(record.getOperation()).orElse(AclOperation.UNKNOWN),
                        PermissionType.fromCode(record.getPermissionType()).orElse(PermissionType.UNKNOWN)));
    }

    /** The record that adds this ACL under {@code id}. */
    public AccessControlEntryRecord toRecord(Uuid id) {
        return AccessControlEntryRecord.newBuilder().setId(id)
                .setResourceType(pattern.resourceType().code()).setResourceName(pattern.name())
                .setPatternType(pattern.patternType().code())
                .setPrincipal(entry.principal()).setHost(entry.host())
                .setOperation(entry.operation().code()).setPermissionType(entry.permissionType().code()).build();
    }
}
