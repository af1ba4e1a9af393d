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
import io.metaquorum.protocol.ExplainAclResponse;
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
 * An explanation is printed as the node wrote it, so it reads the same in its audit log.
 */
final class AclDescriptions {
    private static final String NEWLINE = "\n";
    static final String NOT_ENFORCED = "The node that answered does not enforce ACLs (authorizer.enabled is off): it "
            + "allows every request, whatever the ACLs say.";

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
            out.append(i == 0 ? "" : ", ").append(json(acls.get(i)));
        }
        return out.append("]}").toString();
    }

    /** One ACL as an object of {@link #json(List)}'s list (and of --explain's {@code acl}). */
    static String json(StoredAcl acl) {
        ResourcePattern p = acl.binding().pattern();
        AccessControlEntry e = acl.binding().entry();
        return "{\"id\": " + JsonText.string(TopicIds.toBase64(acl.id()))
                + ", \"resourceType\": " + JsonText.string(p.resourceType().name())
                + ", \"resourceName\": " + JsonText.string(p.name())
                + ", \"patternType\": " + JsonText.string(p.patternType().name())
                + ", \"principal\": " + JsonText.string(e.principal())
                + ", \"host\": " + JsonText.string(e.host())
                + ", \"operation\": " + JsonText.string(e.operation().name())
                + ", \"permissionType\": " + JsonText.string(e.permissionType().name())
                + '}';
    }

    /**
     * ExplainAcl's answer as text: the node's own line, and a second when that node enforces
     * no ACLs, since then the first says what the ACLs decide and not what happens.
     */
    static List<String> explanationLines(ExplainAclResponse answer) {
        if (answer.getAuthorizerEnabled()) {
            return List.of(answer.getExplanation());
        }
        return List.of(answer.getExplanation(), NOT_ENFORCED);
    }

    /** ExplainAcl's answer as one JSON object; {@code acl} is null unless an ACL decided. */
    static String explanationJson(ExplainAclResponse answer) {
        return "{\"allowed\": " + answer.getAllowed()
                + ", \"rule\": " + JsonText.string(answer.getRule())
                + ", \"acl\": " + (answer.hasAcl() ? json(stored(answer.getAcl())) : "null")
                + ", \"explanation\": " + JsonText.string(answer.getExplanation())
                + ", \"authorizerEnabled\": " + answer.getAuthorizerEnabled() + "}";
    }
}
