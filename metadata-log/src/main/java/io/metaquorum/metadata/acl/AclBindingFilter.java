package io.metaquorum.metadata.acl;

import java.util.Optional;

/**
 * Which ACLs a DescribeAcls or DeleteAcls means (Kafka's {@code AclBindingFilter}, its
 * resource and entry filters in one). ANY, and an empty name, principal or host, match
 * everything. The pattern type decides how {@code name} matches an ACL's:
 * <ul>
 *   <li>LITERAL or PREFIXED: ACLs of that pattern type with exactly that name;</li>
 *   <li>ANY: ACLs of any pattern type with exactly that name;</li>
 *   <li>MATCH: the ACLs that apply to a resource of that name: LITERAL ones equal to it,
 *       LITERAL {@code *}, and PREFIXED ones whose name it starts with.</li>
 * </ul>
 * A filter with an UNKNOWN field matches nothing meaningful and is refused before use
 * ({@link #unknownField}).
 */
public record AclBindingFilter(ResourceType resourceType, Optional<String> name, PatternType patternType,
                               Optional<String> principal, Optional<String> host, AclOperation operation,
                               PermissionType permissionType) {
    /** Every ACL. */
    public static final AclBindingFilter ANY = new AclBindingFilter(ResourceType.ANY, Optional.empty(),
            PatternType.ANY, Optional.empty(), Optional.empty(), AclOperation.ANY, PermissionType.ANY);

    /** The filter that matches exactly {@code binding}. */
    public static AclBindingFilter exactly(AclBinding binding) {
        ResourcePattern p = binding.pattern();
        AccessControlEntry e = binding.entry();
        return new AclBindingFilter(p.resourceType(), Optional.of(p.name()), p.patternType(),
                Optional.of(e.principal()), Optional.of(e.host()), e.operation(), e.permissionType());
    }

    /** The first UNKNOWN field, named for a message; empty when the filter can be used. */
    public Optional<String> unknownField() {
        if (resourceType == ResourceType.UNKNOWN) {
            return Optional.of("resource type");
        }
        if (patternType == PatternType.UNKNOWN) {
            return Optional.of("pattern type");
        }
        if (operation == AclOperation.UNKNOWN) {
            return Optional.of("operation");
        }
        if (permissionType == PermissionType.UNKNOWN) {
            return Optional.of("permission type");
        }
        return Optional.empty();
    }

    public boolean matches(AclBinding binding) {
        return matchesPattern(binding.pattern()) && matchesEntry(binding.entry());
    }

    private boolean matchesPattern(ResourcePattern pattern) {
        if (resourceType != ResourceType.ANY && resourceType != pattern.resourceType()) {
            return false;
        }
        boolean anyPattern = patternType == PatternType.ANY || patternType == PatternType.MATCH;
        if (!anyPattern && patternType != pattern.patternType()) {
            return false;
        }
        if (name.isEmpty()) {
            return true;
        }
        String wanted = name.get();
        if (patternType != PatternType.MATCH) {
            return wanted.equals(pattern.name());
        }
        return switch (pattern.patternType()) {
            case LITERAL -> wanted.equals(pattern.name()) || ResourcePattern.WILDCARD.equals(pattern.name());
            case PREFIXED -> wanted.startsWith(pattern.name());
            // An ACL is LITERAL or PREFIXED (AclRules.check): nothing else gets into the log.
            case UNKNOWN, ANY, MATCH -> false;
        };
    }

    private boolean matchesEntry(AccessControlEntry entry) {
        return principal.map(p -> p.equals(entry.principal())).orElse(true)
                && host.map(h -> h.equals(entry.host())).orElse(true)
                && (operation == AclOperation.ANY || operation == entry.operation())
                && (permissionType == PermissionType.ANY || permissionType == entry.permissionType());
    }
}
