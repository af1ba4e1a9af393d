package io.metaquorum.metadata.image;

import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AccessControlEntryRecord;
import io.metaquorum.raft.TopicIds;

/**
 * One ACL of the image, its record's codes decoded once at replay so that a decision compares
 * enums. Replay admits only what Kafka's controller admits ({@code AclReplay}): a concrete
 * resource type, LITERAL or PREFIXED, a concrete operation, ALLOW or DENY, a non-empty
 * resource name and a {@code TYPE:NAME} principal.
 */
public record AclEntry(UuidKey id, ResourceType resourceType, String resourceName, PatternType patternType,
                       String principal, String host, AclOperation operation, PermissionType permission) {
    /** The principal an ACL names to match every user (Kafka's only principal wildcard). */
    public static final String WILDCARD_PRINCIPAL = "User:*";
    /** The host an ACL names to match every host, and the LITERAL resource name that matches every name. */
    public static final String WILDCARD = "*";

    /**
     * The entry of a record replay has already checked; the codes are known to be defined. The
     * principal is interned: an image holds few distinct principals over many ACLs, and with
     * one copy of each, the strings a decision compares principals against stay in the CPU's
     * cache instead of one cold copy per pattern (identity only; every comparison is by value).
     */
    static AclEntry of(AccessControlEntryRecord record) {
        return new AclEntry(UuidKey.of(record.getId()),
                ResourceType.fromCode(record.getResourceType()).orElseThrow(),
                record.getResourceName(),
                PatternType.fromCode(record.getPatternType()).orElseThrow(),
                record.getPrincipal().intern(), record.getHost(),
                AclOperation.fromCode(record.getOperation()).orElseThrow(),
                PermissionType.fromCode(record.getPermissionType()).orElseThrow());
    }

    /** The id as Kafka prints it (URL-safe base64, no padding). */
    public String idText() {
        return TopicIds.toBase64(id.toUuid());
    }

    /**
     * Whether this entry's operation covers {@code requested}, its resource and principal
     * already matched. ALL covers every operation. An ALLOW for READ, WRITE, DELETE or ALTER
     * also allows DESCRIBE, and an ALLOW for ALTER_CONFIGS also allows DESCRIBE_CONFIGS; a DENY
     * denies only the operation it names (Kafka's {@code StandardAuthorizerData.findResult}).
     */
    public boolean covers(AclOperation requested) {
        if (operation == AclOperation.ALL || operation == requested) {
            return true;
        }
        if (permission != PermissionType.ALLOW) {
            return false;
        }
        return switch (requested) {
            case DESCRIBE -> operation == AclOperation.READ || operation == AclOperation.WRITE
                    || operation == AclOperation.DELETE || operation == AclOperation.ALTER;
            case DESCRIBE_CONFIGS -> operation == AclOperation.ALTER_CONFIGS;
            default -> false;
        };
    }

    /**
     * Whether this entry names {@code requestHost}: {@code *} names every host, an address the
     * same string, a CIDR range ({@code 10.0.0.0/24}, Kafka 4.4.0) every address in it.
     */
    public boolean coversHost(String requestHost) {
        return host.equals(WILDCARD) || host.equals(requestHost) || HostRange.contains(host, requestHost);
    }

    /** {@code ALLOW User:* WRITE TOPIC PREFIXED ord}, with {@code from HOST} when the host is not {@code *}. */
    public String describe() {
        String text = permission + " " + principal + " " + operation + " " + resourceType + " " + patternType
                + " " + resourceName;
        return host.equals(WILDCARD) ? text : text + " from " + host;
    }
}
