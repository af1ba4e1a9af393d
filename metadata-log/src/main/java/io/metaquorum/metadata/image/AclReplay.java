package io.metaquorum.metadata.image;

import static io.metaquorum.metadata.image.TopicsReplay.check;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.protocol.RemoveAccessControlEntryRecord;
import io.metaquorum.raft.TopicIds;

/**
 * Replays the ACL records onto an {@link AclsImage}, refusing the impossible ones. An ACL is
 * possible when Kafka's controller would have created it ({@code AclControlManager
 * .validateNewAcl}): a concrete resource type (not UNKNOWN or ANY), LITERAL or PREFIXED, a
 * concrete operation (not UNKNOWN or ANY), ALLOW or DENY, and a non-empty resource name; and
 * its principal has the {@code TYPE:NAME} form every authorization parses it in; and no ACL
 * with the same contents exists under another id.
 */
final class AclReplay {
    private static final String ADD = "AccessControlEntryRecord";

    private AclReplay() {
    }

    static AclsImage add(AclsImage acls, AccessControlEntryRecord record, long offset) {
        check(!record.getId().equals(TopicIds.ZERO), offset, ADD, "the zero id");
        check(acls.byId().get(UuidKey.of(record.getId())).isEmpty(), offset, ADD,
                () -> "ACL id " + TopicIds.toBase64(record.getId()) + " already exists");
        ResourceType resourceType = ResourceType.fromCode(record.getResourceType()).orElse(ResourceType.UNKNOWN);
        check(resourceType != ResourceType.UNKNOWN && resourceType != ResourceType.ANY, offset, ADD,
                () -> "resource type " + record.getResourceType());
        PatternType patternType = PatternType.fromCode(record.getPatternType()).orElse(PatternType.UNKNOWN);
        check(patternType == PatternType.LITERAL || patternType == PatternType.PREFIXED, offset, ADD,
                () -> "pattern type " + record.getPatternType());
        AclOperation operation = AclOperation.fromCode(record.getOperation()).orElse(AclOperation.UNKNOWN);
        check(operation != AclOperation.UNKNOWN && operation != AclOperation.ANY, offset, ADD,
                () -> "operation " + record.getOperation());
        PermissionType permission = PermissionType.fromCode(record.getPermissionType()).orElse(PermissionType.UNKNOWN);
        check(permission == PermissionType.ALLOW || permission == PermissionType.DENY, offset, ADD,
                () -> "permission type " + record.getPermissionType());
        check(!record.getResourceName().isEmpty(), offset, ADD, "empty resource name");
        check(record.getPrincipal().indexOf(':') > 0, offset, ADD,
                () -> "principal '" + record.getPrincipal() + "' is not TYPE:NAME");
        // Kafka's controller creates an ACL only once and its authorizer refuses a second copy.
        check(!acls.index().holdsSame(AclEntry.of(record)), offset, ADD, "the same ACL exists under another id");
        return acls.withEntry(record);
    }

    static AclsImage remove(AclsImage acls, RemoveAccessControlEntryRecord record, long offset) {
        UuidKey id = UuidKey.of(record.getId());
        check(acls.byId().containsKey(id), offset, "RemoveAccessControlEntryRecord",
                () -> "unknown ACL id " + TopicIds.toBase64(record.getId()));
        return acls.withoutEntry(id);
    }
}
