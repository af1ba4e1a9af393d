package io.metaquorum.cli;

import io.metaquorum.metadata.acl.AccessControlEntry;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourcePattern;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.metadata.acl.StoredAcl;
import io.metaquorum.protocol.DescribedAcl;
import io.metaquorum.raft.TopicIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@code mq-acls} prints ACLs (docs/commands.md). Text is kafka-acls.sh's: a block per
 * resource, {@code Current ACLs for resource `ResourcePattern(...)`:} then a tab and an entry
 * per line, with Kafka's spaces around the line breaks, which scripts written for
 * kafka-acls.sh match. JSON is one object, {@code {"acls": [...]}}, each ACL with its id.
 */
final class AclDescriptions {
    private static final String NEWLINE = "\n";

    private AclDescriptions() {
    }

    /** A node's answer as an ACL; a code Kafka does not define reads as UNKNOWN. */
    static StoredAcl stored(DescribedAcl acl) {
        return new StoredAcl(acl.getId(), new AclBinding(
                new ResourcePattern(ResourceType.fromCode(acl.getResourceType()).orElse(ResourceType.UNKNOWN),
                        acl.getResourceName(),
                        PatternType.fromCode(acl.getPatternType()).orElse(PatternType.UNKNOWN)),
                new AccessControlEntry(acl.getPrincipal(), acl.getHost(),
                        AclOperation.fromCode(acl.getOperation()).orElse(AclOperation.UNKNOWN),
                        PermissionType.fromCode(acl.getPermissionType()).orElse(PermissionType.UNKNOWN))));
    }

    /** {@code acls} grouped by resource, in the order each resource first comes. */
    static Map<ResourcePattern, List<AccessControlEntry>> byResource(List<StoredAcl> acls) {
        Map<ResourcePattern, List<AccessControlEntry>> grouped = new LinkedHashMap<>();
        for (StoredAcl acl : acls) {
            grouped.computeIfAbsent(acl.binding().pattern(), r -> new ArrayList<>()).add(acl.binding().entry());
        }
        return grouped;
    }

    /** kafka-acls.sh's block: {@code <heading> `<resource>`: } then the entries, then an empty line. */
    static String block(String heading, ResourcePattern resource, List<AccessControlEntry> entries) {
        List<String> lines = entries.stream().map(e -> "\t" + e).toList();
        return heading + " `" + resource + "`: " + NEWLINE + " " + String.join(NEWLINE, lines) + " " + NEWLINE
                + NEWLINE;
    }

    static String text(String heading, List<StoredAcl> acls) {
        StringBuilder out = new StringBuilder();
        byResource(acls).forEach((resource, entries) -> out.append(block(heading, resource, entries)));
        return out.toString();
    }

    static String json(List<StoredAcl> acls) {
        StringBuilder out = new StringBuilder("{\"acls\": [");
        for (int i = 0; i < acls.size(); i++) {
            StoredAcl acl = acls.get(i);
            ResourcePattern p = acl.binding().pattern();
            AccessControlEntry e = acl.binding().entry();
            out.append(i == 0 ? "" : ", ")
                    .append("{\"id\": ").append(JsonText.string(TopicIds.toBase64(acl.id())))
                    .append(", \"resourceType\": ").append(JsonText.string(p.resourceType().name()))
                    .append(", \"resourceName\": ").append(JsonText.string(p.name()))
                    .append(", \"patternType\": ").append(JsonText.string(p.patternType().name()))
                    .append(", \"principal\": ").append(JsonText.string(e.principal()))
                    .append(", \"host\": ").append(JsonText.string(e.host()))
                    .append(", \"operation\": ").append(JsonText.string(e.operation().name()))
                    .append(", \"permissionType\": ").append(JsonText.string(e.permissionType().name()))
                    .append('}');
        }
        return out.append("]}").toString();
    }
}
