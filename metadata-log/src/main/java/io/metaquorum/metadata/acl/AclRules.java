package io.metaquorum.metadata.acl;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What makes an ACL valid, checked by the controller on CreateAcls and by {@code mq-acls}
 * before it asks. Kafka splits these between the controller (types, empty name) and the
 * broker (the CLUSTER name) and leaves the operation table to {@code kafka-acls.sh}; here the
 * controller checks them all, so that no client can write an ACL that means nothing.
 *
 * <p>The operations per resource type are Kafka's ({@code AclEntry.supportedOperations}),
 * plus ALL, which is valid on every type.
 */
public final class AclRules {
    private AclRules() {
    }

    /** The operations an ACL on {@code type} may name; empty for UNKNOWN and ANY. */
    public static Set<AclOperation> operationsOn(ResourceType type) {
        EnumSet<AclOperation> valid = switch (type) {
            case TOPIC -> EnumSet.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DELETE,
                    AclOperation.ALTER, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.ALTER_CONFIGS);
            case GROUP -> EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS);
            case CLUSTER -> EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER,
                    AclOperation.DESCRIBE);
            case TRANSACTIONAL_ID -> EnumSet.of(AclOperation.DESCRIBE, AclOperation.WRITE,
                    AclOperation.TWO_PHASE_COMMIT);
            case DELEGATION_TOKEN -> EnumSet.of(AclOperation.DESCRIBE);
            case USER -> EnumSet.of(AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS);
            case UNKNOWN, ANY -> EnumSet.noneOf(AclOperation.class);
        };
        if (!valid.isEmpty()) {
            valid.add(AclOperation.ALL);
        }
        return valid;
    }

    /** Why {@code binding} cannot be an ACL, as a message for people; empty when it can. */
    public static Optional<String> check(AclBinding binding) {
        ResourcePattern pattern = binding.pattern();
        AccessControlEntry entry = binding.entry();
        ResourceType type = pattern.resourceType();
        if (type == ResourceType.UNKNOWN || type == ResourceType.ANY) {
            return Optional.of("The resource type " + type + " is not a resource: an ACL names TOPIC, GROUP, CLUSTER, "
                    + "TRANSACTIONAL_ID, DELEGATION_TOKEN or USER.");
        }
        if (pattern.patternType() != PatternType.LITERAL && pattern.patternType() != PatternType.PREFIXED) {
            return Optional.of("The pattern type " + pattern.patternType() + " is for filters only: an ACL is LITERAL "
                    + "or PREFIXED.");
        }
        if (entry.operation() == AclOperation.UNKNOWN || entry.operation() == AclOperation.ANY) {
            return Optional.of("The operation " + entry.operation() + " is for filters only: an ACL names one "
                    + "operation, or ALL.");
        }
        if (entry.permissionType() != PermissionType.ALLOW && entry.permissionType() != PermissionType.DENY) {
            return Optional.of("The permission type " + entry.permissionType() + " is for filters only: an ACL "
                    + "ALLOWs or DENYs.");
        }
        if (pattern.name().isEmpty()) {
            return Optional.of("The resource name is empty.");
        }
        if (type == ResourceType.CLUSTER && !ResourcePattern.CLUSTER_NAME.equals(pattern.name())) {
            return Optional.of("The CLUSTER resource is named " + ResourcePattern.CLUSTER_NAME + ", not '"
                    + pattern.name() + "'.");
        }
        Set<AclOperation> valid = operationsOn(type);
        if (!valid.contains(entry.operation())) {
            return Optional.of("The operation " + entry.operation() + " does not apply to a " + type
                    + "; it takes " + names(valid) + ".");
        }
        return checkPrincipalAndHost(entry);
    }

    private static Optional<String> checkPrincipalAndHost(AccessControlEntry entry) {
        int colon = entry.principal().indexOf(':');
        if (colon <= 0 || colon == entry.principal().length() - 1) {
            return Optional.of("The principal '" + entry.principal() + "' is not TYPE:NAME (e.g. User:alice, "
                    + "or User:* for every user).");
        }
        if (entry.host().isEmpty()) {
            return Optional.of("The host is empty; * is every host.");
        }
        return Optional.empty();
    }

    /** {@code valid} in code order, comma-separated. */
    public static String names(Set<AclOperation> valid) {
        return valid.stream().sorted().map(AclOperation::name).collect(Collectors.joining(", "));
    }
}
