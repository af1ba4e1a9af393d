package io.metaquorum.cli;

import io.metaquorum.metadata.acl.AccessControlEntry;
import io.metaquorum.metadata.acl.AclBinding;
import io.metaquorum.metadata.acl.AclOperation;
import io.metaquorum.metadata.acl.AclRules;
import io.metaquorum.metadata.acl.PatternType;
import io.metaquorum.metadata.acl.PermissionType;
import io.metaquorum.metadata.acl.ResourcePattern;
import io.metaquorum.metadata.acl.ResourceType;
import io.metaquorum.protocol.AclCreation;
import io.metaquorum.protocol.AclFilter;
import io.metaquorum.protocol.ErrorCode;
import io.metaquorum.protocol.ExplainAclRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The values of {@code mq-acls}' flags as kafka-acls.sh reads them: operations by Kafka's
 * names in any case ({@code Read}, {@code DescribeConfigs}, {@code describe-configs}), principals
 * {@code TYPE:NAME}, hosts defaulting to {@code *}; and the ACLs and filters they make.
 */
final class AclArguments {
    /**
     * The host --explain asks from without --host: {@code *}, which an ACL for every host
     * matches and an ACL for one host does not (Kafka compares hosts as strings).
     */
    static final String EXPLAIN_HOST_DEFAULT = AccessControlEntry.WILDCARD_HOST;

    private AclArguments() {
    }

    /** {@code --operation} values, each once, in the order given; ALL when none. */
    static List<AclOperation> operations(List<String> values) {
        Set<AclOperation> operations = new LinkedHashSet<>();
        for (String value : values) {
            operations.add(operation(value));
        }
        return operations.isEmpty() ? List.of(AclOperation.ALL) : List.copyOf(operations);
    }

    private static AclOperation operation(String value) {
        String wanted = squash(value);
        for (AclOperation operation : AclOperation.values()) {
            if (operation != AclOperation.UNKNOWN && operation != AclOperation.ANY
                    && squash(operation.name()).equals(wanted)) {
                return operation;
            }
        }
        List<String> known = new ArrayList<>();
        for (AclOperation operation : AclOperation.values()) {
            if (operation != AclOperation.UNKNOWN && operation != AclOperation.ANY) {
                known.add(operation.name());
            }
        }
        throw invalid("--operation '" + value.trim() + "' is not an operation; one of " + String.join(", ", known)
                + ".");
    }

    /** Upper case without '_' and '-', so Kafka's {@code DescribeConfigs} equals {@code DESCRIBE_CONFIGS}. */
    private static String squash(String name) {
        return name.trim().replace("_", "").replace("-", "").toUpperCase(Locale.ROOT);
    }

    /** {@code --resource-pattern-type}: literal, prefixed, match or any. */
    static PatternType patternType(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "literal" -> PatternType.LITERAL;
            case "prefixed" -> PatternType.PREFIXED;
            case "match" -> PatternType.MATCH;
            case "any" -> PatternType.ANY;
            default -> throw invalid("--resource-pattern-type '" + value.trim()
                    + "' is not one of literal, prefixed, match, any.");
        };
    }

    /** The resources {@code --topic}, {@code --group} and {@code --cluster} name, each once, in that order. */
    static List<ResourcePattern> resources(List<String> topics, List<String> groups, boolean cluster,
                                           PatternType patternType) {
        Set<ResourcePattern> resources = new LinkedHashSet<>();
        for (String topic : topics) {
            resources.add(new ResourcePattern(ResourceType.TOPIC, topic.trim(), patternType));
        }
        for (String group : groups) {
            resources.add(new ResourcePattern(ResourceType.GROUP, group.trim(), patternType));
        }
        if (cluster) {
            resources.add(new ResourcePattern(ResourceType.CLUSTER, ResourcePattern.CLUSTER_NAME, patternType));
        }
        return List.copyOf(resources);
    }

    /**
     * The entries the principal flags make, kafka-acls.sh's way: every allowed principal with
     * every operation and every allowed host (default {@code *}), then the same for denied ones.
     */
    static List<AccessControlEntry> entries(List<String> allowPrincipals, List<String> allowHosts,
                                            List<String> denyPrincipals, List<String> denyHosts,
                                            List<AclOperation> operations) {
        Set<AccessControlEntry> entries = new LinkedHashSet<>();
        addEntries(entries, allowPrincipals, allowHosts, operations, PermissionType.ALLOW);
        addEntries(entries, denyPrincipals, denyHosts, operations, PermissionType.DENY);
        return List.copyOf(entries);
    }

    private static void addEntries(Set<AccessControlEntry> out, List<String> principals, List<String> hosts,
                                   List<AclOperation> operations, PermissionType permission) {
        List<String> hostList = hosts.isEmpty() ? List.of(AccessControlEntry.WILDCARD_HOST) : hosts;
        for (String principal : principals) {
            for (AclOperation operation : operations) {
                for (String host : hostList) {
                    out.add(new AccessControlEntry(principal.trim(), host.trim(), operation, permission));
                }
            }
        }
    }

    /** Every resource with every entry; the first that is no valid ACL is an error naming it. */
    static List<AclBinding> bindings(List<ResourcePattern> resources, List<AccessControlEntry> entries) {
        List<AclBinding> bindings = new ArrayList<>();
        for (ResourcePattern resource : resources) {
            for (AccessControlEntry entry : entries) {
                AclBinding binding = new AclBinding(resource, entry);
                Optional<String> bad = AclRules.check(binding);
                if (bad.isPresent()) {
                    throw invalid(bad.get());
                }
                bindings.add(binding);
            }
        }
        return bindings;
    }

    /** For --remove, which names entries but may filter resources: each operation must apply to its resource type. */
    static void checkOperations(List<ResourcePattern> resources, List<AccessControlEntry> entries) {
        for (ResourcePattern resource : resources) {
            Set<AclOperation> valid = AclRules.operationsOn(resource.resourceType());
            for (AccessControlEntry entry : entries) {
                if (!valid.contains(entry.operation())) {
                    throw invalid("The operation " + entry.operation() + " does not apply to a "
                            + resource.resourceType() + "; it takes " + AclRules.names(valid) + ".");
                }
            }
        }
    }

    /**
     * ExplainAcl's question: may {@code principal}, from {@code host}, do {@code operation} on
     * {@code resource}? Checked as an ACL of the same fields would be (a TYPE:NAME principal,
     * an operation that applies to the resource type), so a question no ACL could answer is
     * refused here with the message --add gives; and ALL, which an ACL grants but no request does.
     */
    static ExplainAclRequest question(String principal, String host, AclOperation operation,
                                      ResourcePattern resource) {
        if (operation == AclOperation.ALL) {
            throw invalid("--explain asks about one operation a client does; All is what an ACL grants, not what a "
                    + "client asks for: name one, e.g. Read.");
        }
        AccessControlEntry entry = new AccessControlEntry(principal.trim(), host.trim(), operation,
                PermissionType.ALLOW);
        Optional<String> bad = AclRules.check(new AclBinding(resource, entry));
        if (bad.isPresent()) {
            throw invalid(bad.get());
        }
        return ExplainAclRequest.newBuilder().setPrincipal(entry.principal()).setHost(entry.host())
                .setOperation(operation.code()).setResourceType(resource.resourceType().code())
                .setResourceName(resource.name()).build();
    }

    static AclCreation creation(AclBinding binding) {
        ResourcePattern p = binding.pattern();
        AccessControlEntry e = binding.entry();
        return AclCreation.newBuilder().setResourceType(p.resourceType().code()).setResourceName(p.name())
                .setPatternType(p.patternType().code()).setPrincipal(e.principal()).setHost(e.host())
                .setOperation(e.operation().code()).setPermissionType(e.permissionType().code()).build();
    }

    /** The ACLs of {@code resource}: all of them, or only the one {@code entry} names. */
    static AclFilter filter(ResourcePattern resource, Optional<AccessControlEntry> entry) {
        AclFilter.Builder filter = AclFilter.newBuilder().setResourceType(resource.resourceType().code())
                .setResourceName(resource.name()).setPatternType(resource.patternType().code())
                .setOperation(AclOperation.ANY.code()).setPermissionType(PermissionType.ANY.code());
        entry.ifPresent(e -> filter.setPrincipal(e.principal()).setHost(e.host()).setOperation(e.operation().code())
                .setPermissionType(e.permissionType().code()));
        return filter.build();
    }

    /** Every ACL. */
    static AclFilter everything() {
        return AclFilter.newBuilder().setResourceType(ResourceType.ANY.code()).setPatternType(PatternType.ANY.code())
                .setOperation(AclOperation.ANY.code()).setPermissionType(PermissionType.ANY.code()).build();
    }

    private static AdminError invalid(String message) {
        return new AdminError(ErrorCode.INVALID_REQUEST, message);
    }
}
